"""The bundled public theme at / and the query API templates use to read published content."""
