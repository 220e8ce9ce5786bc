// ESLint for the web pages' scripts (ES modules in the browser) and their unit tests
// (node --test).
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", ".venv/", "build/", "dist/", "src/yatzy/web/static/vendor/"] },
  js.configs.recommended,
  {
    files: ["src/yatzy/web/static/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
    rules: {
      "no-unused-expressions": ["error", { allowTernary: true }],
      "no-var": "error",
      "prefer-const": "error",
      eqeqeq: "error",
    },
  },
  {
    files: ["tests/js/**/*.js", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.node },
  },
];
