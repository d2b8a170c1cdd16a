"""The OpenAPI 3.1 document (SPEC §1), one package:

- `builder`: `document(app)`, the whole document, and `VERSION`;
- `views`: `@operation`, how a view that is not a generic resource view describes itself;
- `params`: the parameters (paths, lists' filters, sorts, `fields`, `expand`, `q`);
- `shapes`: the schema shapes (references, lists and their `meta`, enums shared, nulls apart);
- `error_answers`: the error answers, their codes and examples.
"""

from openapi.builder import VERSION, document
from openapi.views import operation

__all__ = ["VERSION", "document", "operation"]
