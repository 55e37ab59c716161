import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([".next/**", ".next-*/**", "node_modules/**", "lib/generated/**", ".data/**", ".tmp/**", "test-results/**", "playwright-report/**", "next-env.d.ts"]),
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_", ignoreRestSiblings: true }],
      // Links to the hub's pages never prefetch (components/link.tsx, docs/decisions/047).
      "no-restricted-imports": ["error", { paths: [{ name: "next/link", message: "Use @/components/link: the hub's links do not prefetch (docs/decisions/047)." }] }],
    },
  },
  { files: ["components/link.tsx"], rules: { "no-restricted-imports": "off" } },
]);
