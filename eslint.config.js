// ESLint for the whole repository (issue 11, "Habits"): TypeScript's recommended rules, React and
// its hooks, and jsx-a11y for the pages keyboard and screen-reader users meet. Formatting is
// Prettier's job (.prettierrc.json); nothing here argues about layout.
import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import react from "eslint-plugin-react";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "build/**",
      ".builds/**",
      "public/build/**",
      "node_modules/**",
      "tests/.tmp/**",
      "test-results/**",
      "playwright-report/**",
      ".cache/**",
      "coverage/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: "module",
      globals: { ...globals.node, ...globals.browser },
    },
    rules: {
      // `_`-prefixed names are deliberately unused (a handler's unused request, a skipped tuple slot).
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      // Empty catch blocks here carry a comment saying why the failure is ignored.
      "no-empty": ["error", { allowEmptyCatch: true }],
    },
  },
  {
    files: ["app/**/*.tsx"],
    plugins: { react, "react-hooks": reactHooks, "jsx-a11y": jsxA11y },
    settings: { react: { version: "detect" } },
    rules: {
      ...react.configs.recommended.rules,
      ...react.configs["jsx-runtime"].rules,
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      ...jsxA11y.flatConfigs.recommended.rules,
      // A scrolling table is a focusable region so keyboard users can scroll it (axe's
      // scrollable-region-focusable); that is the one non-interactive element given a tab stop.
      "jsx-a11y/no-noninteractive-tabindex": ["error", { tags: [], roles: ["tabpanel", "region"], allowExpressionValues: true }],
      // Types say what props are; prop-types would say it twice.
      "react/prop-types": "off",
    },
  },
  {
    // Components and browser-safe code never reach into routes or server modules (issue 11): a
    // component a route uses must not pull that route (or the server) into every page using it.
    files: ["app/components/**/*.{ts,tsx}", "app/lib/**/*.{ts,tsx}"],
    ignores: ["**/*.test.ts", "**/*.test.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["~/routes/*", "../routes/*", "**/*.server", "~/services/*", "~/services/**"],
              message: "components and app/lib import neither routes nor server modules",
            },
          ],
        },
      ],
    },
  },
  {
    // Tests may reach into loosely typed answers (JSON from the wire) without ceremony.
    files: ["**/*.test.ts", "**/*.test.tsx", "tests/**/*.ts", "engine/testing/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off", "@typescript-eslint/no-non-null-assertion": "off" },
  },
);
