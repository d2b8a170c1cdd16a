-- Step 5: events (SPEC §8): every committed change, written in its own transaction; the history of a gig.
CREATE TABLE "events" (
  "seq" INTEGER NOT NULL PRIMARY KEY,
  "id" VARCHAR(36) NOT NULL,
  "type" VARCHAR(80) NOT NULL,
  "occurred_at" VARCHAR(27) NOT NULL,
  "actor_user_id" VARCHAR(36),
  "actor_name" VARCHAR(200),
  "actor_token_kind" VARCHAR(10),
  "request_id" VARCHAR(128),
  "subject_collection" VARCHAR(60) NOT NULL,
  "subject_id" VARCHAR(36) NOT NULL,
  "subject_group" VARCHAR(20) NOT NULL,
  "gig_id" VARCHAR(36),
  "data" TEXT,
  "changes" TEXT
);
CREATE UNIQUE INDEX "event_id" ON "events" ("id");
CREATE INDEX "event_subject_group_seq" ON "events" ("subject_group", "seq");
CREATE INDEX "event_type_seq" ON "events" ("type", "seq");
CREATE INDEX "event_subject_collection_seq" ON "events" ("subject_collection", "seq");
CREATE INDEX "event_subject_id_seq" ON "events" ("subject_id", "seq");
CREATE INDEX "event_gig_id_seq" ON "events" ("gig_id", "seq");
CREATE INDEX "event_actor_user_id_seq" ON "events" ("actor_user_id", "seq");
CREATE INDEX "event_occurred_at_seq" ON "events" ("occurred_at", "seq");
