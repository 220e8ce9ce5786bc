// Starts Swagger UI on the app's own OpenAPI document (a file, not an inline script).
window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger-ui" });
