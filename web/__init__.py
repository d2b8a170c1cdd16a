"""The HTTP layer's own machinery, below the routes: the request lifecycle, the error envelope and what a 409
shows, rate limits, the service's small HTML pages, and the console's assets and service worker."""
