import { expect, type Page } from "@playwright/test";
import { sidebarOf } from "./vault";

/** Create a project from the sidebar's Projects section (Save history on) and wait for it to be the open one. */
export async function createProject(page: Page, name: string, instructions = ""): Promise<void> {
  const projects = sidebarOf(page).getByRole("region", { name: "Projects" });
  await projects.getByRole("button", { name: "+ New project" }).click();
  const dialog = page.getByRole("dialog", { name: "New project" });
  await dialog.getByLabel("Name").fill(name);
  if (instructions) await dialog.getByLabel("Instructions").fill(instructions);
  await dialog.getByRole("button", { name: "Create project" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("chat-project")).toHaveText(`Project: ${name}`);
}
