/**
 * Fills `{name}` placeholders in a prompt template. Only names present in
 * `variables` are replaced, so literal braces elsewhere (JSON, code) survive.
 *
 * @returns the rendered text and the names the template used but that had no value.
 */
export function renderTemplate(
  template: string,
  variables: Readonly<Record<string, string>>,
): { text: string; missing: string[] } {
  const missing = new Set<string>();
  const text = template.replace(/\{([A-Za-z][A-Za-z0-9_]*)\}/g, (whole, name: string) => {
    const value = variables[name];
    if (value === undefined) {
      missing.add(name);
      return whole;
    }
    return value;
  });
  return { text, missing: [...missing] };
}
