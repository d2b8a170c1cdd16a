-- Step 6: webhooks (SPEC §8): the endpoints events are sent to, and one delivery per event and endpoint, the
-- worker's queue and the log of its attempts.
CREATE TABLE "webhook_endpoints" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "url" VARCHAR(2000) COLLATE "C" NOT NULL,
  "description" TEXT COLLATE "C",
  "event_types" TEXT COLLATE "C" NOT NULL,
  "include_pay" BOOLEAN NOT NULL,
  "is_active" BOOLEAN NOT NULL,
  "disabled_reason" TEXT COLLATE "C",
  "secret_prefix" VARCHAR(12) COLLATE "C" NOT NULL,
  "secret" VARCHAR(60) COLLATE "C" NOT NULL,
  "previous_secret" VARCHAR(60) COLLATE "C",
  "previous_secret_until" VARCHAR(27) COLLATE "C",
  "failing_since" VARCHAR(27) COLLATE "C"
);
CREATE TABLE "webhook_deliveries" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "endpoint_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "event_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "event_type" VARCHAR(80) COLLATE "C" NOT NULL,
  "status" VARCHAR(9) COLLATE "C" NOT NULL,
  "attempts" BIGINT NOT NULL,
  "next_attempt_at" VARCHAR(27) COLLATE "C",
  "last_attempt_at" VARCHAR(27) COLLATE "C",
  "last_status_code" BIGINT,
  "last_error" TEXT COLLATE "C",
  "response_excerpt" TEXT COLLATE "C",
  "claimed_until" VARCHAR(27) COLLATE "C",
  "one_more" BOOLEAN NOT NULL,
  FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints" ("id") ON DELETE CASCADE,
  FOREIGN KEY ("event_id") REFERENCES "events" ("id") ON DELETE CASCADE
);
CREATE INDEX "webhookdelivery_event_id" ON "webhook_deliveries" ("event_id");
CREATE INDEX "webhookdelivery_endpoint_id_created_at" ON "webhook_deliveries" ("endpoint_id", "created_at");
CREATE INDEX "webhookdelivery_endpoint_id_status_next_attempt_at" ON "webhook_deliveries" ("endpoint_id", "status",
  "next_attempt_at");
CREATE INDEX "webhookdelivery_status_next_attempt_at" ON "webhook_deliveries" ("status", "next_attempt_at");
CREATE INDEX "webhookdelivery_status_created_at" ON "webhook_deliveries" ("status", "created_at");
CREATE INDEX "webhookdelivery_created_at" ON "webhook_deliveries" ("created_at");
SELECT "band_count_changes_of"('webhook_endpoints');
SELECT "band_count_changes_of"('webhook_deliveries');

-- An event queues its deliveries itself, in its own statement: one per active endpoint whose event_types hold
-- its type, `<record>.*` or `*`. Webhooks' own records are not sent (one receiver's URL may be its credential,
-- and no other receiver's business; a ping is queued to its one endpoint by the API). The id is a random UUID.
-- Having queued some, it tells the senders of every process that listen on `band_webhook_deliveries` (as the
-- transaction commits, and not at all if it is undone).
CREATE FUNCTION "event_queues_webhook_deliveries"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "queued" BIGINT;
  "kinds" TEXT[] := ARRAY[NEW."type", left(NEW."type", strpos(NEW."type", '.')) || '*', '*'];
BEGIN
  INSERT INTO "webhook_deliveries" ("id", "created_at", "updated_at", "endpoint_id", "event_id", "event_type",
    "status", "attempts", "next_attempt_at", "one_more")
  SELECT gen_random_uuid()::text, NEW."occurred_at", NEW."occurred_at", e."id", NEW."id", NEW."type", 'pending', 0,
         NEW."occurred_at", false
    FROM "webhook_endpoints" e
   WHERE e."is_active" AND EXISTS (SELECT 1 FROM jsonb_array_elements_text(e."event_types"::jsonb) t("kind")
                                    WHERE t."kind" = ANY ("kinds"));
  GET DIAGNOSTICS "queued" = ROW_COUNT;
  IF "queued" > 0 THEN
    PERFORM pg_notify('band_webhook_deliveries', '');
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "event_queues_webhook_deliveries" AFTER INSERT ON "events" FOR EACH ROW
  WHEN (NEW."subject_collection" NOT IN ('webhook_endpoints', 'webhook_deliveries'))
  EXECUTE FUNCTION "event_queues_webhook_deliveries"();
