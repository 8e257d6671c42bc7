import { describe, expect, it } from "vitest";
import { formatKb, passageCount } from "@/components/projects/file-labels";

/** The project files dialog's counts (the project files dialog): no "1 passages", no "1 KB used" with no files. */
describe("project file labels", () => {
  it("says 0 KB for nothing stored, at least 1 KB for any byte, whole KB otherwise", () => {
    expect(formatKb(0)).toBe("0 KB");
    expect(formatKb(1)).toBe("1 KB");
    expect(formatKb(1536)).toBe("2 KB");
    expect(formatKb(5 * 1024 * 1024)).toBe("5,120 KB");
  });
  it("counts passages in the singular for one", () => {
    expect(passageCount(1)).toBe("1 passage");
    expect(passageCount(0)).toBe("0 passages");
    expect(passageCount(1200)).toBe("1,200 passages");
  });
});
