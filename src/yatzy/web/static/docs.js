// Starts Swagger UI on the app's own OpenAPI document (a file, not an inline script);
// no validator badge (it would ask a server elsewhere).
/* global SwaggerUIBundle -- from the Swagger UI script the page loads first */
window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger-ui", validatorUrl: null });
