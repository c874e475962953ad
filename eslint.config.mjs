// ESLint flat config. Besides Next's recommended rules it enforces the layering
// of DESIGN.md §2: dependencies point inward, UI code never reaches server code.
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

// lib/environments/descriptors is the pure client registry of the families (no Node, no React;
// tests/environments/descriptors.test.ts checks what it reaches), so client code may read it.
const serverOnly = ["@/lib/engine/*", "@/lib/llm/*", "@/lib/db/*", "@/lib/server/*", "@/lib/sandbox/*", "@/lib/environments/*", "@/lib/cli/*", "!@/lib/environments/descriptors"];
const restrict = (patterns, message) => ({
  "no-restricted-imports": ["error", { patterns: [{ group: patterns, message }] }],
});

// A rule lives in one place (DESIGN.md §8): what a strategy does is read from its
// behaviour table, never re-derived by comparing its name. The guard covers the code
// that may not import lib/engine (plus lib/server); lib/domain and lib/engine hold the
// rules, and the families choose their per-strategy templates and texts.
const STRATEGY_NAME = "/^(none|reflexion|last-attempt|last-attempt-and-reflexion|cot|cot-gold-context)$/";
const STRATEGY_RULE_MESSAGE =
  "Strategy behaviour is not re-implemented here: use lib/domain/strategies.ts (strategyBehaviour, fixedLimitsOf) or the rules built on it (lib/domain/next-step.ts, next-trial.ts, fork-outlook.ts). Display names keyed by strategy go in a Record<Strategy, string>.";
const noStrategyComparisons = {
  "no-restricted-syntax": [
    "error",
    { selector: `BinaryExpression[operator=/^[!=]==?$/] > Literal[value=${STRATEGY_NAME}]`, message: STRATEGY_RULE_MESSAGE },
    { selector: `SwitchCase > Literal.test[value=${STRATEGY_NAME}]`, message: STRATEGY_RULE_MESSAGE },
  ],
};

const config = [
  ...nextVitals,
  ...nextTypescript,
  {
    ignores: [".next/**", "node_modules/**", "public/vendor/**", "test-results/**", "playwright-report/**", "next-env.d.ts", "lib/db/migrations/**"],
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
    },
  },
  {
    files: ["lib/domain/**"],
    rules: restrict(["@/lib/*", "!@/lib/domain", "!@/lib/domain/*", "!@/lib/utils/*", "react", "next", "next/*"], "lib/domain imports only zod and lib/utils (DESIGN.md §2)."),
  },
  {
    files: ["lib/engine/**"],
    rules: restrict(["@/lib/llm/*", "@/lib/db/*", "@/lib/server/*", "@/lib/environments/*", "@/lib/query/*", "@/lib/store/*", "@/components/*", "react", "next", "next/*", "better-sqlite3", "drizzle-orm", "drizzle-orm/*"], "lib/engine is plain TS: it talks to ports, not to adapters, React, Next or the DB (DESIGN.md §2)."),
  },
  {
    files: ["lib/environments/**"],
    rules: restrict(["@/lib/llm/*", "@/lib/db/*", "@/lib/server/*", "@/lib/query/*", "@/lib/store/*", "@/components/*", "react", "next", "next/*"], "Environments depend only on lib/domain (DESIGN.md §3)."),
  },
  {
    files: ["lib/graph/**"],
    rules: restrict([...serverOnly, "react", "react-dom", "@/components/*"], "lib/graph is a pure projection: no React, no server code."),
  },
  {
    files: ["components/**", "lib/query/**", "lib/store/**", "app/**/*.tsx"],
    rules: restrict(serverOnly, "Client code never imports server code; go through lib/query and the HTTP API (DESIGN.md §2)."),
  },
  {
    // Server pages and layouts may ask lib/server/page-lookup whether their id exists, to answer 404 with notFound().
    files: ["app/**/page.tsx", "app/**/layout.tsx"],
    rules: restrict([...serverOnly, "!@/lib/server/page-lookup"], "Client code never imports server code; go through lib/query and the HTTP API (DESIGN.md §2). Server pages may use only lib/server/page-lookup."),
  },
  {
    files: ["components/**", "lib/graph/**", "lib/server/**", "lib/query/**", "lib/store/**", "app/**", "bin/**"],
    rules: noStrategyComparisons,
  },
];

export default config;
