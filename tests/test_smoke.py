def test_smoke(admin, build):
    team = build("teams")
    r = admin.get("/teams")
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["data"][0]["id"] == team["id"]
