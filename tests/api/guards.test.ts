/**
 * Every dashboard page and server action checks who is asking, read from the
 * source so a new page without its guard fails here:
 *  - app/app/**: operator pages: each page calls requireOperatorSession();
 *  - app/account/**: member pages: each page calls requireMemberSession();
 *  - every exported server action ("use server") under them starts with the
 *    guard of its area, before it reads the form.
 * Layouts guard too, but a layout does not re-run on client navigation, so
 * the page's own call is what counts.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

function files(dir: string, match: (file: string) => boolean): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const full = path.join(dir, d.name);
    return d.isDirectory() ? files(full, match) : match(full) ? [full] : [];
  });
}

const areas = [
  { dir: "app/app", guard: "requireOperatorSession" },
  { dir: "app/account", guard: "requireMemberSession" },
] as const;

describe.each(areas)("$dir", ({ dir, guard }) => {
  const pages = files(dir, (f) => /\/page\.tsx$/.test(f));
  test("has pages", () => {
    expect(pages.length).toBeGreaterThan(0);
  });
  test.each(pages)(`%s calls ${guard}()`, (file) => {
    expect(fs.readFileSync(file, "utf8")).toMatch(new RegExp(`await ${guard}\\(\\)`));
  });

  const actionFiles = files(dir, (f) => /\.tsx?$/.test(f) && /^["']use server["']/m.test(fs.readFileSync(f, "utf8")));
  const actions = actionFiles.flatMap((file) => {
    const source = fs.readFileSync(file, "utf8");
    return [...source.matchAll(/export async function (\w+)\([^)]*\)[^{]*\{\n([^\n]*)/g)].map((m) => [`${file}: ${m[1]}`, m[2]!] as const);
  });
  test.each(actions)(`server action %s starts with ${guard}()`, (_name, firstLine) => {
    expect(firstLine).toMatch(new RegExp(`await ${guard}\\(\\)`));
  });
  test("every exported function of a server-action file is a guarded action", () => {
    for (const file of actionFiles) {
      const source = fs.readFileSync(file, "utf8");
      const exported = [...source.matchAll(/^export (?:async )?(?:function|const) (\w+)/gm)].length;
      const guarded = [...source.matchAll(/export async function \w+\([^)]*\)[^{]*\{\n[^\n]*await (?:requireOperatorSession|requireMemberSession)\(\)/g)].length;
      expect(guarded, file).toBe(exported);
    }
  });
});
