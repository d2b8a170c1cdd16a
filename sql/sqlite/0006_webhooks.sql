-- Step 6: webhooks (SPEC §8): the endpoints events are sent to, and one delivery per event and endpoint, the
-- worker's queue and the log of its attempts.
CREATE TABLE "webhook_endpoints" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "url" VARCHAR(2000) NOT NULL,
  "description" TEXT,
  "event_types" TEXT NOT NULL,
  "include_pay" INTEGER NOT NULL,
  "is_active" INTEGER NOT NULL,
  "disabled_reason" TEXT,
  "secret_prefix" VARCHAR(12) NOT NULL,
  "secret" VARCHAR(60) NOT NULL,
  "previous_secret" VARCHAR(60),
  "previous_secret_until" VARCHAR(27),
  "failing_since" VARCHAR(27)
);
CREATE TABLE "webhook_deliveries" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "endpoint_id" VARCHAR(36) NOT NULL,
  "event_id" VARCHAR(36) NOT NULL,
  "event_type" VARCHAR(80) NOT NULL,
  "status" VARCHAR(9) NOT NULL,
  "attempts" INTEGER NOT NULL,
  "next_attempt_at" VARCHAR(27),
  "last_attempt_at" VARCHAR(27),
  "last_status_code" INTEGER,
  "last_error" TEXT,
  "response_excerpt" TEXT,
  "claimed_until" VARCHAR(27),
  "one_more" INTEGER NOT NULL,
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
-- An event queues its deliveries itself, in its own statement: one per active endpoint whose event_types hold
-- its type, `<record>.*` or `*`. Webhooks' own records are not sent (one receiver's URL may be its credential,
-- and no other receiver's business; a ping is queued to its one endpoint by the API). The id is a random UUID.
CREATE TRIGGER "event_queues_webhook_deliveries" AFTER INSERT ON "events"
WHEN NEW."subject_collection" NOT IN ('webhook_endpoints', 'webhook_deliveries')
BEGIN
  INSERT INTO "webhook_deliveries" ("id", "created_at", "updated_at", "endpoint_id", "event_id", "event_type",
    "status", "attempts", "next_attempt_at", "one_more")
  SELECT lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' || substr(lower(hex(randomblob(2))), 2)
      || '-' || substr('89ab', 1 + abs(random()) % 4, 1) || substr(lower(hex(randomblob(2))), 2) || '-'
      || lower(hex(randomblob(6))),
    NEW."occurred_at", NEW."occurred_at", e."id", NEW."id", NEW."type", 'pending', 0, NEW."occurred_at", 0
  FROM "webhook_endpoints" e
  WHERE e."is_active" = 1 AND EXISTS (SELECT 1 FROM json_each(e."event_types") t
    WHERE t.value IN (NEW."type", substr(NEW."type", 1, instr(NEW."type", '.')) || '*', '*'));
END;
