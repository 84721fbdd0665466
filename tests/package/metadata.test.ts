// What npm shows for the package: where the source, the docs and the issue tracker are, and a
// README whose links work on npmjs.com (relative links resolve against npm, not the repository).
import { execFileSync } from "node:child_process";
import { describe, expect, inject, it } from "vitest";

const tarball = inject("tarball");
const REPO = "https://github.com/inferloop/inferloop";

const fromTarball = (file: string): string =>
  execFileSync("tar", ["-xzOf", tarball, `package/${file}`], { encoding: "utf8" });

describe("package metadata", () => {
  const manifest = JSON.parse(fromTarball("package.json")) as Record<string, unknown>;

  it("names the repository, the homepage and the issue tracker", () => {
    expect(manifest["repository"]).toEqual({ type: "git", url: `git+${REPO}.git` });
    expect(manifest["homepage"]).toBe(`${REPO}#readme`);
    expect(manifest["bugs"]).toEqual({ url: `${REPO}/issues` });
  });

  it("builds before packing, so a pack of an unbuilt clone still ships dist", () => {
    const scripts = manifest["scripts"] as Record<string, string>;
    // The build's own commands, not `npm run build`: a second npm inside `npm pack` would
    // repeat its banner and any config warnings of the machine's npm.
    expect(scripts["prepack"]).toBe(scripts["build"]);
    expect(scripts["prepack"]).not.toMatch(/\bnpm\b/);
  });

  it("says what developing the repository needs (Node 20 and npm) apart from what the package needs", () => {
    expect(manifest["engines"]).toEqual({ node: ">=22" });
    expect(manifest["devEngines"]).toMatchObject({ runtime: { name: "node", version: ">=20" } });
  });

  it("the packed README links only to absolute URLs, and its docs links point into the repository", () => {
    const readme = fromTarball("README.md");
    const targets = [...readme.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]!);
    expect(targets.length).toBeGreaterThan(5);
    for (const target of targets) expect(target, `relative link in README: ${target}`).toMatch(/^https:\/\//);
    const docs = targets.filter((t) => t.includes("/docs/"));
    expect(docs.length).toBeGreaterThan(5);
    for (const target of docs) expect(target).toMatch(new RegExp(`^${REPO}/blob/main/docs/[\\w/.-]+\\.md(#[\\w-]+)?$`));
  });
});
