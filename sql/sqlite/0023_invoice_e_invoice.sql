-- Step 23: an invoice may ask for its Factur-X XML whatever its client (SPEC §15: `e_invoice`); listed by it too.
ALTER TABLE "invoices" ADD COLUMN "e_invoice" INTEGER NOT NULL DEFAULT false;
CREATE UNIQUE INDEX "invoice_e_invoice_id" ON "invoices" ("e_invoice", "id");
