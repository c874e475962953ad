import { checkTemplateText, placeholderProblemMessage, templateTooLargeMessage, type TemplateRules } from "@/lib/domain/template-check";

/**
 * The template check (lib/domain/template-check.ts) in the optimiser's words: what is wrong with a
 * template text, or null when it passes. Unlike the library's doors, the optimiser has no opt-out
 * (an optimised template must run as the role's template), so the message names no override field.
 */
export function templateProblem(text: string, rules: TemplateRules | null, what: string): string | null {
  const problems = checkTemplateText(text, rules);
  if (problems.tooLarge !== null) return `${what}: ${templateTooLargeMessage(problems.tooLarge)}.`;
  return rules ? placeholderProblemMessage(problems, rules, what) : null;
}
