import { defineConfig } from "drizzle-kit";

/** PostgreSQL migrations (issue 17, docs/decisions/0027): `npm run db:generate` writes these and the SQLite ones. */
export default defineConfig({
  dialect: "postgresql",
  schema: "./lib/db/pg/schema.ts",
  out: "./lib/db/pg-migrations",
});
