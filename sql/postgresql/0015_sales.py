"""Step 15: money in (SPEC §15), as sql/sqlite/0015_sales.py (whose `apply` this runs), with the tables as
PostgreSQL writes them (text compared by code point, integers of 64 bits, booleans)."""

import importlib.util
from pathlib import Path

SHARED = Path(__file__).resolve().parent.parent / "sqlite" / "0015_sales.py"
spec = importlib.util.spec_from_file_location("migration_0015_shared", SHARED)
shared = importlib.util.module_from_spec(spec)
spec.loader.exec_module(shared)

TABLES = """
CREATE TABLE "quotes" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "gig_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "contact_id" VARCHAR(36) COLLATE "C",
  "currency" VARCHAR(3) COLLATE "C" NOT NULL,
  "valid_until" VARCHAR(10) COLLATE "C" NOT NULL,
  "intro" TEXT COLLATE "C",
  "terms" TEXT COLLATE "C",
  "deposit_percent" BIGINT NOT NULL,
  "deposit_due_days" BIGINT NOT NULL,
  "balance_due_days" BIGINT NOT NULL,
  "number" VARCHAR(20) COLLATE "C",
  "status" VARCHAR(10) COLLATE "C" NOT NULL,
  "sent_at" VARCHAR(27) COLLATE "C",
  "responded_at" VARCHAR(27) COLLATE "C",
  "responded_by" VARCHAR(36) COLLATE "C",
  "net_cents" BIGINT NOT NULL,
  "tax_cents" BIGINT NOT NULL,
  "gross_cents" BIGINT NOT NULL,
  FOREIGN KEY ("gig_id") REFERENCES "gigs" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("contact_id") REFERENCES "contacts" ("id") ON DELETE RESTRICT
);
CREATE UNIQUE INDEX "quote_number" ON "quotes" ("number");
CREATE UNIQUE INDEX "quote_created_at_id" ON "quotes" ("created_at", "id");
CREATE UNIQUE INDEX "quote_updated_at_id" ON "quotes" ("updated_at", "id");
CREATE UNIQUE INDEX "quote_gig_id_id" ON "quotes" ("gig_id", "id");
CREATE UNIQUE INDEX "quote_contact_id_id" ON "quotes" ("contact_id", "id");
CREATE UNIQUE INDEX "quote_currency_id" ON "quotes" ("currency", "id");
CREATE UNIQUE INDEX "quote_valid_until_id" ON "quotes" ("valid_until", "id");
CREATE UNIQUE INDEX "quote_deposit_percent_id" ON "quotes" ("deposit_percent", "id");
CREATE UNIQUE INDEX "quote_deposit_due_days_id" ON "quotes" ("deposit_due_days", "id");
CREATE UNIQUE INDEX "quote_balance_due_days_id" ON "quotes" ("balance_due_days", "id");
CREATE UNIQUE INDEX "quote_number_id" ON "quotes" ("number", "id");
CREATE UNIQUE INDEX "quote_status_id" ON "quotes" ("status", "id");
CREATE UNIQUE INDEX "quote_sent_at_id" ON "quotes" ("sent_at", "id");
CREATE UNIQUE INDEX "quote_responded_at_id" ON "quotes" ("responded_at", "id");
CREATE UNIQUE INDEX "quote_responded_by_id" ON "quotes" ("responded_by", "id");
CREATE UNIQUE INDEX "quote_net_cents_id" ON "quotes" ("net_cents", "id");
CREATE UNIQUE INDEX "quote_tax_cents_id" ON "quotes" ("tax_cents", "id");
CREATE UNIQUE INDEX "quote_gross_cents_id" ON "quotes" ("gross_cents", "id");
CREATE UNIQUE INDEX "quote_accepted_gig_id" ON "quotes" ("gig_id") WHERE ("status" = 'accepted');
CREATE TABLE "quote_lines" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "quote_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "description" VARCHAR(300) COLLATE "C" NOT NULL,
  "quantity" BIGINT NOT NULL,
  "unit_price_cents" BIGINT NOT NULL,
  "tax_rate_bp" BIGINT NOT NULL,
  "gig_product_id" VARCHAR(36) COLLATE "C",
  "position" BIGINT,
  FOREIGN KEY ("quote_id") REFERENCES "quotes" ("id") ON DELETE CASCADE,
  FOREIGN KEY ("gig_product_id") REFERENCES "gig_products" ("id") ON DELETE RESTRICT
);
CREATE INDEX "quoteline_quote_id" ON "quote_lines" ("quote_id");
CREATE INDEX "quoteline_gig_product_id" ON "quote_lines" ("gig_product_id");
CREATE TABLE "contract_templates" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "name" VARCHAR(200) COLLATE "C" NOT NULL,
  "body" TEXT COLLATE "C" NOT NULL,
  "is_default" BOOLEAN NOT NULL,
  "active" BOOLEAN NOT NULL
);
CREATE TABLE "contracts" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "gig_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "template_id" VARCHAR(36) COLLATE "C",
  "quote_id" VARCHAR(36) COLLATE "C",
  "number" VARCHAR(20) COLLATE "C",
  "status" VARCHAR(6) COLLATE "C" NOT NULL,
  "body" TEXT COLLATE "C",
  "sha256" VARCHAR(64) COLLATE "C",
  "sent_at" VARCHAR(27) COLLATE "C",
  "signed_at" VARCHAR(27) COLLATE "C",
  "signed_name" VARCHAR(200) COLLATE "C",
  "signed_ip" VARCHAR(45) COLLATE "C",
  "signed_user_agent" VARCHAR(500) COLLATE "C",
  "signed_by" VARCHAR(36) COLLATE "C",
  "void_reason" TEXT COLLATE "C",
  FOREIGN KEY ("gig_id") REFERENCES "gigs" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("template_id") REFERENCES "contract_templates" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("quote_id") REFERENCES "quotes" ("id") ON DELETE RESTRICT
);
CREATE INDEX "contract_gig_id" ON "contracts" ("gig_id");
CREATE INDEX "contract_template_id" ON "contracts" ("template_id");
CREATE INDEX "contract_quote_id" ON "contracts" ("quote_id");
CREATE UNIQUE INDEX "contract_number" ON "contracts" ("number");
CREATE TABLE "invoices" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "gig_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "contact_id" VARCHAR(36) COLLATE "C",
  "kind" VARCHAR(11) COLLATE "C" NOT NULL,
  "currency" VARCHAR(3) COLLATE "C" NOT NULL,
  "service_date" VARCHAR(10) COLLATE "C" NOT NULL,
  "due_date" VARCHAR(10) COLLATE "C",
  "notes" TEXT COLLATE "C",
  "number" VARCHAR(20) COLLATE "C",
  "status" VARCHAR(11) COLLATE "C" NOT NULL,
  "issued_at" VARCHAR(27) COLLATE "C",
  "net_cents" BIGINT NOT NULL,
  "tax_cents" BIGINT NOT NULL,
  "gross_cents" BIGINT NOT NULL,
  "paid_cents" BIGINT NOT NULL,
  "open_cents" BIGINT NOT NULL,
  "credits_invoice_id" VARCHAR(36) COLLATE "C",
  FOREIGN KEY ("gig_id") REFERENCES "gigs" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("contact_id") REFERENCES "contacts" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("credits_invoice_id") REFERENCES "invoices" ("id") ON DELETE SET NULL
);
CREATE UNIQUE INDEX "invoice_number" ON "invoices" ("number");
CREATE UNIQUE INDEX "invoice_created_at_id" ON "invoices" ("created_at", "id");
CREATE UNIQUE INDEX "invoice_updated_at_id" ON "invoices" ("updated_at", "id");
CREATE UNIQUE INDEX "invoice_gig_id_id" ON "invoices" ("gig_id", "id");
CREATE UNIQUE INDEX "invoice_contact_id_id" ON "invoices" ("contact_id", "id");
CREATE UNIQUE INDEX "invoice_kind_id" ON "invoices" ("kind", "id");
CREATE UNIQUE INDEX "invoice_currency_id" ON "invoices" ("currency", "id");
CREATE UNIQUE INDEX "invoice_service_date_id" ON "invoices" ("service_date", "id");
CREATE UNIQUE INDEX "invoice_due_date_id" ON "invoices" ("due_date", "id");
CREATE UNIQUE INDEX "invoice_number_id" ON "invoices" ("number", "id");
CREATE UNIQUE INDEX "invoice_status_id" ON "invoices" ("status", "id");
CREATE UNIQUE INDEX "invoice_issued_at_id" ON "invoices" ("issued_at", "id");
CREATE UNIQUE INDEX "invoice_net_cents_id" ON "invoices" ("net_cents", "id");
CREATE UNIQUE INDEX "invoice_tax_cents_id" ON "invoices" ("tax_cents", "id");
CREATE UNIQUE INDEX "invoice_gross_cents_id" ON "invoices" ("gross_cents", "id");
CREATE UNIQUE INDEX "invoice_paid_cents_id" ON "invoices" ("paid_cents", "id");
CREATE UNIQUE INDEX "invoice_open_cents_id" ON "invoices" ("open_cents", "id");
CREATE UNIQUE INDEX "invoice_credits_invoice_id_id" ON "invoices" ("credits_invoice_id", "id");
CREATE INDEX "invoice_status_due_date_id" ON "invoices" ("status", "due_date", "id");
CREATE TABLE "invoice_lines" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "invoice_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "description" VARCHAR(300) COLLATE "C" NOT NULL,
  "quantity" BIGINT NOT NULL,
  "unit_price_cents" BIGINT NOT NULL,
  "tax_rate_bp" BIGINT NOT NULL,
  "gig_product_id" VARCHAR(36) COLLATE "C",
  "position" BIGINT,
  FOREIGN KEY ("invoice_id") REFERENCES "invoices" ("id") ON DELETE CASCADE,
  FOREIGN KEY ("gig_product_id") REFERENCES "gig_products" ("id") ON DELETE RESTRICT
);
CREATE INDEX "invoiceline_invoice_id" ON "invoice_lines" ("invoice_id");
CREATE INDEX "invoiceline_gig_product_id" ON "invoice_lines" ("gig_product_id");
CREATE TABLE "payments" (
  "id" VARCHAR(36) COLLATE "C" NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "updated_at" VARCHAR(27) COLLATE "C" NOT NULL,
  "invoice_id" VARCHAR(36) COLLATE "C" NOT NULL,
  "amount_cents" BIGINT NOT NULL,
  "received_on" VARCHAR(10) COLLATE "C" NOT NULL,
  "method" VARCHAR(13) COLLATE "C" NOT NULL,
  "reference" VARCHAR(200) COLLATE "C",
  "notes" TEXT COLLATE "C",
  FOREIGN KEY ("invoice_id") REFERENCES "invoices" ("id") ON DELETE RESTRICT
);
CREATE UNIQUE INDEX "payment_created_at_id" ON "payments" ("created_at", "id");
CREATE UNIQUE INDEX "payment_updated_at_id" ON "payments" ("updated_at", "id");
CREATE UNIQUE INDEX "payment_invoice_id_id" ON "payments" ("invoice_id", "id");
CREATE UNIQUE INDEX "payment_amount_cents_id" ON "payments" ("amount_cents", "id");
CREATE UNIQUE INDEX "payment_received_on_id" ON "payments" ("received_on", "id");
CREATE UNIQUE INDEX "payment_method_id" ON "payments" ("method", "id");
CREATE UNIQUE INDEX "payment_reference_id" ON "payments" ("reference", "id");

-- A webhook endpoint is sent money in (the sales group's events) only when it says so (`include_sales`): as a caller
-- without sales.view, it reads none of it otherwise.
ALTER TABLE "webhook_endpoints" ADD COLUMN "include_sales" BOOLEAN NOT NULL DEFAULT FALSE;
CREATE OR REPLACE FUNCTION "event_queues_webhook_deliveries"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "queued" BIGINT;
  "kinds" TEXT[] := ARRAY[NEW."type", left(NEW."type", strpos(NEW."type", '.')) || '*', '*'];
BEGIN
  INSERT INTO "webhook_deliveries" ("id", "created_at", "updated_at", "endpoint_id", "event_id", "event_type",
    "status", "attempts", "next_attempt_at", "one_more")
  SELECT gen_random_uuid()::text, NEW."occurred_at", NEW."occurred_at", e."id", NEW."id", NEW."type", 'pending', 0,
         NEW."occurred_at", false
    FROM "webhook_endpoints" e
   WHERE e."is_active" AND (NEW."subject_group" <> 'sales' OR e."include_sales")
     AND EXISTS (SELECT 1 FROM jsonb_array_elements_text(e."event_types"::jsonb) t("kind")
                  WHERE t."kind" = ANY ("kinds"));
  GET DIAGNOSTICS "queued" = ROW_COUNT;
  IF "queued" > 0 THEN
    PERFORM pg_notify('band_webhook_deliveries', '');
  END IF;
  RETURN NULL;
END $$;
"""


def apply(database):
    shared.apply(database, TABLES)
