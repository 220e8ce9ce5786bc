// Starts Swagger UI on the app's own OpenAPI document (a file, not an inline script);
// no validator badge (it would ask a server elsewhere).
window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger-ui", validatorUrl: null });
