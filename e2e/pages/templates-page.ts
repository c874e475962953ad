import { expect, type Locator, type Page } from "@playwright/test";

/** The template library (`/templates`) and a template's workbench (`/templates/:id`). */
export class TemplatesPage {
  constructor(private readonly page: Page) {}

  /** Opens the library from the header link, as a person would from any page. */
  async openLibraryFromHeader(): Promise<void> {
    await this.page.goto("/");
    await this.page.getByTestId("nav-templates").click();
    await this.page.waitForURL(/\/templates$/);
    await expect(this.page.getByTestId("template-library")).toBeVisible();
  }

  /** A template's row in the library. */
  row(templateId: string): Locator {
    return this.page.locator(`[data-testid="template-row"][data-template-id="${templateId}"]`);
  }

  /** Opens a template's workbench from its row and waits for the editor. */
  async open(templateId: string): Promise<void> {
    await this.row(templateId).getByTestId("open-template").click();
    await this.page.waitForURL(new RegExp(`/templates/${encodeURIComponent(templateId).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`));
    await expect(this.workbench).toHaveAttribute("data-template-id", templateId);
    await expect(this.monacoInput).toBeAttached();
    // The role's variables have loaded (highlighting, completion and markers use them).
    await expect(this.editor).not.toHaveAttribute("data-known", "0");
  }

  get workbench(): Locator {
    return this.page.getByTestId("template-workbench");
  }

  get editor(): Locator {
    return this.page.getByTestId("template-editor");
  }

  /** The template editor's Monaco instance. */
  get monacoInput(): Locator {
    return this.editor.locator(".monaco-editor").first();
  }

  /** The lines Monaco draws (what is visible of the text). */
  get editorLines(): Locator {
    return this.editor.locator(".view-lines");
  }

  /** Puts the cursor at the very end of the text (keyboard only). */
  async goToEnd(): Promise<void> {
    await expect(this.editor).not.toHaveAttribute("data-known", "0");
    // A click in the text focuses Monaco's input (a textarea or an EditContext element, by browser).
    await this.editorLines.click();
    await expect(this.editor.locator(".monaco-editor.focused")).toBeAttached();
    await this.page.keyboard.press("Control+End");
  }

  /** Types into the editor at the cursor, as keystrokes. */
  async type(text: string): Promise<void> {
    await this.page.keyboard.type(text, { delay: 5 });
  }

  /** Monaco's suggestion list (the `{` completion). */
  get suggestions(): Locator {
    return this.editor.locator(".suggest-widget .monaco-list-row");
  }

  async tab(name: "preview" | "diff" | "history" | "ab"): Promise<void> {
    await this.page.getByTestId(`template-tab-${name}`).click();
    await expect(this.page.getByTestId(`template-tab-${name}`)).toHaveAttribute("aria-selected", "true");
  }

  /** "Save as new template" on a built-in: resolves with the new template's id once its page is open. */
  async saveAsNewTemplate(name: string, message: string): Promise<string> {
    await this.page.getByTestId("save-template-name").fill(name);
    await this.page.getByTestId("save-version-message").fill(message);
    await this.page.getByTestId("save-version").click();
    await expect(this.workbench).toHaveAttribute("data-built-in", "false");
    await expect(this.page.getByTestId("template-name")).toHaveText(name);
    return (await this.workbench.getAttribute("data-template-id")) ?? "";
  }

  /** "Save version" with a message; waits for the saved notice. */
  async saveVersion(message: string, expectedNumber: number): Promise<void> {
    await this.page.getByTestId("save-version-message").fill(message);
    await this.page.getByTestId("save-version").click();
    await expect(this.page.getByTestId("save-version-notice")).toHaveText(`Saved as v${expectedNumber}.`);
    await expect(this.page.getByTestId("editor-version")).toContainText(`v${expectedNumber}`);
    await expect(this.editor).toHaveAttribute("data-dirty", "false");
  }
}
