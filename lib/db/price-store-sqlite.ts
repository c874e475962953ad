import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { priceRowSchema, type PriceRow } from "@/lib/domain/prices";
import { comparePriceRows, type PriceStore } from "./price-store";
import { MIGRATIONS_FOLDER } from "./sqlite-store";
import * as schema from "./schema";
import { openSqliteConnection, drizzleOver, type SqliteConnection } from "./sqlite-connection";

type Db = BetterSQLite3Database<typeof schema>;

/**
 * The SQLite {@link PriceStore}: the `prices` table of the app's database file
 * (its own connection, WAL mode; migrations applied on open). Rows are only
 * inserted (`INSERT … ON CONFLICT DO NOTHING`); the migration's triggers abort
 * any UPDATE or DELETE.
 */
export class SqlitePriceStore implements PriceStore {
  private readonly client: SqliteConnection;
  private readonly db: Db;

  /** Opens (creating if needed) the database at `file`; `:memory:` gives a private database (tests). */
  constructor(file: string, options: { migrationsFolder?: string } = {}) {
    this.client = openSqliteConnection(file);
    this.db = drizzleOver(this.client, schema);
    migrate(this.db, { migrationsFolder: options.migrationsFolder ?? MIGRATIONS_FOLDER });
  }

  /** Closes the connection. */
  close(): void {
    this.client.close();
  }

  /** Runs raw SQL (tests show the triggers refuse changes). */
  execForTests(statement: string): void {
    this.client.exec(statement);
  }

  async listPrices(): Promise<PriceRow[]> {
    const rows = this.db.select().from(schema.prices).all();
    return rows.map((row) => priceRowSchema.parse(row)).sort(comparePriceRows);
  }

  async addPrice(row: PriceRow): Promise<boolean> {
    const result = this.db.insert(schema.prices).values(priceRowSchema.parse(row)).onConflictDoNothing().run();
    return result.changes > 0;
  }
}
