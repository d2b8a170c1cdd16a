"""Who is calling and who holds which access role: roles are a JSON array of names on the user (stored as text)."""

from dialects.postgresql.database import db

# The grants of user `u`'s access roles (each a JSON array), as the text of a JSON array of arrays.
GRANTS_SQL = """(SELECT coalesce(json_agg(r.grants::json), '[]')::text FROM access_roles r
                  WHERE u.roles::jsonb @> jsonb_build_array(r.name))"""

# One statement per request: the token, its user, and the user's grants.
CALLER_SQL = f"""
SELECT u.id, u.email, u.name, u.roles, {GRANTS_SQL}, t.id, t.kind, t.expires_at, t.label, t.last_used_at
  FROM tokens t JOIN users u ON u.id = t.user_id
 WHERE t.token_hash = %s AND t.revoked_at IS NULL AND t.expires_at > %s AND u.active
"""


def caller_row(token_hash, moment):
    """(user id, email, name, roles JSON, grants JSON, token id, kind, expires_at, label, last_used_at) of a
    live token whose user is active, or None."""
    return db.execute_sql(CALLER_SQL, (token_hash, moment)).fetchone()


def grants_of(user_id):
    """The grants of an active user's access roles as a JSON array of arrays, or None."""
    row = db.execute_sql(f"SELECT {GRANTS_SQL} FROM users u WHERE u.id = %s AND u.active", (user_id,)).fetchone()
    return row[0] if row else None


def count_role_holders(role_name):
    """How many users hold the access role `role_name` (roles are a JSON array on the user)."""
    sql = "SELECT count(*) FROM users WHERE roles::jsonb @> jsonb_build_array(%s::text)"
    return db.execute_sql(sql, (role_name,)).fetchone()[0]


def count_all_capability_holders():
    """How many active users hold an access role that grants `*`."""
    sql = """SELECT count(*) FROM users u WHERE u.active AND EXISTS (
               SELECT 1 FROM access_roles r
                WHERE r.grants::jsonb @> '["*"]' AND u.roles::jsonb @> jsonb_build_array(r.name))"""
    return db.execute_sql(sql).fetchone()[0]
