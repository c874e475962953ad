/** The `?branch=<id>` query parameter of a per-run route; null means the root branch. */
export function branchParam(request: Request): string | null {
  const value = new URL(request.url).searchParams.get("branch");
  return value && value.trim() !== "" ? value : null;
}
