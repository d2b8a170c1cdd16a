"""Equipment a product needs and equipment on a gig, as the production tests build and read them."""


def closed_status(build):
    return build.id("gig-statuses", kind="cancelled")


def on_gig(admin, gig_id):
    """The equipment ids on a gig, as the gig-equipment list shows them."""
    rows = admin.get(f"/gig-equipment?filter[gig_id]={gig_id}&limit=200").get_json()["data"]
    return sorted(row["equipment_id"] for row in rows)


def need(build, product, kind, quantity):
    build("product-equipment", product_id=product, equipment_type_id=kind, quantity=quantity)
