-- Step 5: events (SPEC §8): every committed change, written in its own transaction; the history of a gig.
CREATE TABLE "events" (
  "seq" BIGINT NOT NULL PRIMARY KEY,
  "id" VARCHAR(36) COLLATE "C" NOT NULL,
  "type" VARCHAR(80) COLLATE "C" NOT NULL,
  "occurred_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "actor_user_id" VARCHAR(36) COLLATE "C",
  "actor_name" VARCHAR(200) COLLATE "C",
  "actor_token_kind" VARCHAR(10) COLLATE "C",
  "request_id" VARCHAR(128) COLLATE "C",
  "subject_collection" VARCHAR(60) COLLATE "C" NOT NULL,
  "subject_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "subject_group" VARCHAR(20) COLLATE "C" NOT NULL,
  "gig_id" VARCHAR(36) COLLATE "C",
  "data" TEXT COLLATE "C",
  "changes" TEXT COLLATE "C"
);
CREATE UNIQUE INDEX "event_id" ON "events" ("id");
CREATE INDEX "event_subject_group_seq" ON "events" ("subject_group", "seq");
CREATE INDEX "event_type_seq" ON "events" ("type", "seq");
CREATE INDEX "event_subject_collection_seq" ON "events" ("subject_collection", "seq");
CREATE INDEX "event_subject_id_seq" ON "events" ("subject_id", "seq");
CREATE INDEX "event_gig_id_seq" ON "events" ("gig_id", "seq");
CREATE INDEX "event_actor_user_id_seq" ON "events" ("actor_user_id", "seq");
CREATE INDEX "event_occurred_at_seq" ON "events" ("occurred_at", "seq");
SELECT "band_count_changes_of"('events');

-- The numbers follow the commits, as SQLite's do (one writer at a time): whoever reads the events after number N
-- (`filter[seq][gt]=N`) never misses one committed later with a smaller number. A sequence alone hands numbers
-- out as transactions ask, not as they commit; so an event without a number takes a lock held until its
-- transaction ends, then the next number. A given number is kept (a copied office keeps its events' numbers).
CREATE SEQUENCE "events_seq" AS BIGINT OWNED BY "events"."seq";

CREATE FUNCTION "event_numbered"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."seq" IS NULL THEN
    PERFORM pg_advisory_xact_lock(hashtext('band.events.seq'));
    NEW."seq" := nextval('"events_seq"');
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER "event_numbered" BEFORE INSERT ON "events" FOR EACH ROW EXECUTE FUNCTION "event_numbered"();
