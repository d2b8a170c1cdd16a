-- Step 24: each index a list of payments walks holds the payment's invoice, so that a page filtered through it
-- (`filter[invoice.status]=paid`, the Money screen at 100 000 invoices) reads no payment's row to check it.
DROP INDEX "payment_created_at_id";
CREATE UNIQUE INDEX "payment_created_at_id_invoice_id" ON "payments" ("created_at", "id", "invoice_id");
DROP INDEX "payment_updated_at_id";
CREATE UNIQUE INDEX "payment_updated_at_id_invoice_id" ON "payments" ("updated_at", "id", "invoice_id");
DROP INDEX "payment_amount_cents_id";
CREATE UNIQUE INDEX "payment_amount_cents_id_invoice_id" ON "payments" ("amount_cents", "id", "invoice_id");
DROP INDEX "payment_received_on_id";
CREATE UNIQUE INDEX "payment_received_on_id_invoice_id" ON "payments" ("received_on", "id", "invoice_id");
DROP INDEX "payment_method_id";
CREATE UNIQUE INDEX "payment_method_id_invoice_id" ON "payments" ("method", "id", "invoice_id");
DROP INDEX "payment_reference_id";
CREATE UNIQUE INDEX "payment_reference_id_invoice_id" ON "payments" ("reference", "id", "invoice_id");
