import type { AccountServices } from "@/lib/auth/accounts";

/**
 * The account id an audit filter's `user` names (docs/audit.md): an account id, an email, or a person's
 * name (any case) become that account's id, so `--user rita`, `--user rita@lab.example` and the id find
 * the same entries — CLI actions included, whose actor name carries their token ("Rita (token ci)").
 * Without accounts (embedded mode), or when no account matches, the value is kept as typed (it then
 * matches an actor's exact name or id, e.g. `local` or `cli`).
 */
export async function resolveAuditUser(accounts: AccountServices | null, value: string | undefined): Promise<string | undefined> {
  if (!value || !accounts) return value;
  const direct = await accounts.users.find(value).catch(() => null);
  if (direct) return direct.id;
  const wanted = value.trim().toLowerCase();
  const byName = (await accounts.users.list()).filter((user) => user.name.trim().toLowerCase() === wanted);
  return byName.length === 1 && byName[0] ? byName[0].id : value;
}
