-- Step 23: the language a contact reads (SPEC §16), `en` or `de`: what the client's mails, documents and page say.
-- A contact takes German where their custom field `language` said so (what picked it before), else where the
-- office's language is German; the custom field's values stay as they were.
ALTER TABLE "contacts" ADD COLUMN "language" VARCHAR(2) COLLATE "C" NOT NULL DEFAULT 'en';
UPDATE "contacts" SET "language" = 'de'
WHERE CASE lower(substr(CAST("custom_fields"::jsonb ->> 'language' AS TEXT), 1, 2))
        WHEN 'de' THEN TRUE
        WHEN 'en' THEN FALSE
        ELSE lower(substr((SELECT "value"::jsonb ->> 'language' FROM "settings" WHERE "key" = 'office'), 1, 2)) = 'de'
      END;
