"""Who is calling and who holds which access role, on every database: roles are a JSON array of names on the user,
grants a JSON array on the role. Only how a JSON array is read differs, and the current dialect writes that."""

from dialects import dialect

db, param = dialect.db, dialect.db.param

# The grants of user `u`'s access roles, as the text of a JSON array of arrays.
GRANTS_SQL = f"""(SELECT {dialect.json_array_of("r.grants")} FROM access_roles r
                  WHERE {dialect.json_array_holds("u.roles", "r.name")})"""

# One statement per request: the token, its user, and the user's grants.
CALLER_SQL = f"""
SELECT u.id, u.email, u.name, u.roles, {GRANTS_SQL}, t.id, t.kind, t.expires_at, t.label, t.last_used_at
  FROM tokens t JOIN users u ON u.id = t.user_id
 WHERE t.token_hash = {param} AND t.revoked_at IS NULL AND t.expires_at > {param} AND u.active
"""


def caller_row(token_hash, moment):
    """(user id, email, name, roles JSON, grants JSON, token id, kind, expires_at, label, last_used_at) of a
    live token whose user is active, or None."""
    return db.execute_sql(CALLER_SQL, (token_hash, moment)).fetchone()


def grants_of(user_id):
    """The grants of an active user's access roles as a JSON array of arrays, or None."""
    sql = f"SELECT {GRANTS_SQL} FROM users u WHERE u.id = {param} AND u.active"
    row = db.execute_sql(sql, (user_id,)).fetchone()
    return row[0] if row else None


def count_role_holders(role_name):
    """How many users hold the access role `role_name`."""
    sql = f"SELECT count(*) FROM users u WHERE {dialect.json_array_holds('u.roles', param)}"
    return db.execute_sql(sql, (role_name,)).fetchone()[0]


def count_all_capability_holders():
    """How many active users hold an access role that grants `*`."""
    grants_all, held = dialect.json_array_holds("r.grants", "'*'"), dialect.json_array_holds("u.roles", "r.name")
    sql = f"""SELECT count(*) FROM users u
               WHERE u.active AND EXISTS (SELECT 1 FROM access_roles r WHERE {grants_all} AND {held})"""
    return db.execute_sql(sql).fetchone()[0]
