"""Step 15: money in (SPEC §15). The sales group's tables (quotes and their lines, contract templates, contracts,
invoices and their lines, payments) with an index for each of their lists' filters and sorts; the search index of
contract templates' names; webhook endpoints sent the sales group's events only with `include_sales`; and the
shipped `office` and `viewer` access roles given `sales.*` and `sales.view` where they still hold the grants they
shipped with (recorded as `access_role.updated` events of no one, as the worker's are): a role the office changed
is its own choice and stays as it is. PostgreSQL's step 15 runs `apply` of this file with its own statements."""

import json
import logging

from dialects import dialect
from models import new_id, now

# The shipped roles' grants before this step, and what it adds to each.
SHIPPED = {
    "office": ([f"{g}.*" for g in ("gigs", "catalog", "staffing", "production", "people", "pay")], "sales.*"),
    "viewer": ([f"{g}.view" for g in ("gigs", "catalog", "staffing", "production", "people", "pay")], "sales.view"),
}
# The events table as step 5 made it (a later step may change it; this one writes what it knew); {p}: a parameter.
EVENT = """INSERT INTO "events" ("id", "type", "occurred_at", "subject_collection", "subject_id", "subject_group",
  "data", "changes") VALUES ({p}, 'access_role.updated', {p}, 'access_roles', {p}, 'admin', {p}, {p})"""
ROLE = "SELECT id, created_at, grants, description FROM access_roles WHERE name = {p}"
UPDATE = "UPDATE access_roles SET grants = {p}, updated_at = {p} WHERE id = {p}"

log = logging.getLogger("band.migrations")

TABLES = """
CREATE TABLE "quotes" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "gig_id" VARCHAR(36) NOT NULL,
  "contact_id" VARCHAR(36),
  "currency" VARCHAR(3) NOT NULL,
  "valid_until" VARCHAR(10) NOT NULL,
  "intro" TEXT,
  "terms" TEXT,
  "deposit_percent" INTEGER NOT NULL,
  "deposit_due_days" INTEGER NOT NULL,
  "balance_due_days" INTEGER NOT NULL,
  "number" VARCHAR(20),
  "status" VARCHAR(10) NOT NULL,
  "sent_at" VARCHAR(27),
  "responded_at" VARCHAR(27),
  "responded_by" VARCHAR(36),
  "net_cents" INTEGER NOT NULL,
  "tax_cents" INTEGER NOT NULL,
  "gross_cents" INTEGER NOT NULL,
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
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "quote_id" VARCHAR(36) NOT NULL,
  "description" VARCHAR(300) NOT NULL,
  "quantity" INTEGER NOT NULL,
  "unit_price_cents" INTEGER NOT NULL,
  "tax_rate_bp" INTEGER NOT NULL,
  "gig_product_id" VARCHAR(36),
  "position" INTEGER,
  FOREIGN KEY ("quote_id") REFERENCES "quotes" ("id") ON DELETE CASCADE,
  FOREIGN KEY ("gig_product_id") REFERENCES "gig_products" ("id") ON DELETE RESTRICT
);
CREATE INDEX "quoteline_quote_id" ON "quote_lines" ("quote_id");
CREATE INDEX "quoteline_gig_product_id" ON "quote_lines" ("gig_product_id");
CREATE TABLE "contract_templates" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "name" VARCHAR(200) NOT NULL,
  "body" TEXT NOT NULL,
  "is_default" INTEGER NOT NULL,
  "active" INTEGER NOT NULL
);
CREATE TABLE "contracts" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "gig_id" VARCHAR(36) NOT NULL,
  "template_id" VARCHAR(36),
  "quote_id" VARCHAR(36),
  "number" VARCHAR(20),
  "status" VARCHAR(6) NOT NULL,
  "body" TEXT,
  "sha256" VARCHAR(64),
  "sent_at" VARCHAR(27),
  "signed_at" VARCHAR(27),
  "signed_name" VARCHAR(200),
  "signed_ip" VARCHAR(45),
  "signed_user_agent" VARCHAR(500),
  "signed_by" VARCHAR(36),
  "void_reason" TEXT,
  FOREIGN KEY ("gig_id") REFERENCES "gigs" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("template_id") REFERENCES "contract_templates" ("id") ON DELETE RESTRICT,
  FOREIGN KEY ("quote_id") REFERENCES "quotes" ("id") ON DELETE RESTRICT
);
CREATE INDEX "contract_gig_id" ON "contracts" ("gig_id");
CREATE INDEX "contract_template_id" ON "contracts" ("template_id");
CREATE INDEX "contract_quote_id" ON "contracts" ("quote_id");
CREATE UNIQUE INDEX "contract_number" ON "contracts" ("number");
CREATE TABLE "invoices" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "gig_id" VARCHAR(36) NOT NULL,
  "contact_id" VARCHAR(36),
  "kind" VARCHAR(11) NOT NULL,
  "currency" VARCHAR(3) NOT NULL,
  "service_date" VARCHAR(10) NOT NULL,
  "due_date" VARCHAR(10),
  "notes" TEXT,
  "number" VARCHAR(20),
  "status" VARCHAR(11) NOT NULL,
  "issued_at" VARCHAR(27),
  "net_cents" INTEGER NOT NULL,
  "tax_cents" INTEGER NOT NULL,
  "gross_cents" INTEGER NOT NULL,
  "paid_cents" INTEGER NOT NULL,
  "open_cents" INTEGER NOT NULL,
  "credits_invoice_id" VARCHAR(36),
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
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "invoice_id" VARCHAR(36) NOT NULL,
  "description" VARCHAR(300) NOT NULL,
  "quantity" INTEGER NOT NULL,
  "unit_price_cents" INTEGER NOT NULL,
  "tax_rate_bp" INTEGER NOT NULL,
  "gig_product_id" VARCHAR(36),
  "position" INTEGER,
  FOREIGN KEY ("invoice_id") REFERENCES "invoices" ("id") ON DELETE CASCADE,
  FOREIGN KEY ("gig_product_id") REFERENCES "gig_products" ("id") ON DELETE RESTRICT
);
CREATE INDEX "invoiceline_invoice_id" ON "invoice_lines" ("invoice_id");
CREATE INDEX "invoiceline_gig_product_id" ON "invoice_lines" ("gig_product_id");
CREATE TABLE "payments" (
  "id" VARCHAR(36) NOT NULL PRIMARY KEY,
  "created_at" VARCHAR(27) NOT NULL,
  "updated_at" VARCHAR(27) NOT NULL,
  "invoice_id" VARCHAR(36) NOT NULL,
  "amount_cents" INTEGER NOT NULL,
  "received_on" VARCHAR(10) NOT NULL,
  "method" VARCHAR(13) NOT NULL,
  "reference" VARCHAR(200),
  "notes" TEXT,
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
ALTER TABLE "webhook_endpoints" ADD COLUMN "include_sales" INTEGER NOT NULL DEFAULT 0;
DROP TRIGGER "event_queues_webhook_deliveries";
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
  WHERE e."is_active" = 1 AND (NEW."subject_group" <> 'sales' OR e."include_sales" = 1)
    AND EXISTS (SELECT 1 FROM json_each(e."event_types") t
      WHERE t.value IN (NEW."type", substr(NEW."type", 1, instr(NEW."type", '.')) || '*', '*'));
END;
"""


def apply(database, tables=TABLES):
    for statement in dialect.statements(tables):
        database.execute_sql(statement)
    for statement in dialect.search_index("contract_templates", ("name",)):
        database.execute_sql(statement)
    for name, (grants, added) in SHIPPED.items():
        sales_granted(database, name, grants, added)


def sales_granted(database, name, shipped, added):
    """The shipped access role `name` with its grants of before (`shipped`) gets `added` too, with its event."""
    p = database.param
    row = database.execute_sql(ROLE.format(p=p), (name,)).fetchone()
    if row is None or set(json.loads(row[2])) != set(shipped):
        return
    role_id, created_at, description = row[0], row[1], row[3]
    grants, stamp = [*shipped, added], now()
    database.execute_sql(UPDATE.format(p=p), (json.dumps(grants), stamp, role_id))
    data = {"id": role_id, "created_at": created_at, "updated_at": stamp, "name": name, "grants": grants}
    data["description"] = description
    changes = json.dumps({"grants": {"from": shipped, "to": grants}})
    database.execute_sql(EVENT.format(p=p), (new_id(), stamp, role_id, json.dumps(data), changes))
    log.info("step 15: the %s access role now holds %s", name, added)
