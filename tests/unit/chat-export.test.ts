import { describe, expect, it } from "vitest";
import { addSibling, fromMessages } from "@/lib/browser/chat/branches";
import { chatsToJson, chatsToMarkdown, chatToMarkdown, EXPORT_FORMAT, exportFileName, type ExportableChat, type ExportJson } from "@/lib/browser/chat/export";
import type { SavedMessage } from "@/lib/browser/chat/saved-tree";

const NOW = new Date("2026-11-22T18:40:00Z");

const linear: ExportableChat = {
  id: "0b0e4a52-1111-4000-8000-000000000001",
  title: "Kiwi facts",
  createdAt: "2026-11-20T09:00:00.000Z",
  updatedAt: "2026-11-21T10:30:00.000Z",
  messages: [
    { role: "user", content: "Tell me about kiwis", attachmentName: "kiwi.pdf" },
    { role: "assistant", content: "Kiwis are flightless birds.\n\n```js\nconsole.log(1)\n```\n" },
  ],
  tree: null,
};

function branched(): ExportableChat {
  const tree = addSibling(
    fromMessages<SavedMessage>([
      { role: "user", content: "Question" },
      { role: "assistant", content: "Old answer" },
    ]),
    "m2",
    { role: "assistant", content: "New answer" },
  ).tree;
  return {
    id: "0b0e4a52-1111-4000-8000-000000000002",
    title: null,
    createdAt: null,
    updatedAt: "2026-11-22T08:00:00.000Z",
    messages: [
      { role: "user", content: "Question" },
      { role: "assistant", content: "New answer" },
    ],
    tree,
  };
}

describe("export (docs/issues.md #9)", () => {
  it("writes one chat as Markdown: title, dates in UTC, speakers, attachment names, content as is", () => {
    expect(chatToMarkdown(linear)).toBe(
      [
        "# Kiwi facts",
        "",
        "_Created 2026-11-20 09:00 UTC · Last updated 2026-11-21 10:30 UTC_",
        "",
        "## You",
        "",
        "_Attachment: kiwi.pdf_",
        "",
        "Tell me about kiwis",
        "",
        "## Hush",
        "",
        "Kiwis are flightless birds.",
        "",
        "```js",
        "console.log(1)",
        "```",
        "",
      ].join("\n"),
    );
  });

  it("shows the active path of a chat with versions in Markdown and labels the versions", () => {
    const md = chatToMarkdown(branched());
    expect(md).toMatch(/^# Untitled Chat\n/);
    expect(md).toContain("## Hush (version 2 of 2)\n\nNew answer");
    expect(md).not.toContain("Old answer");
    expect(md).toContain("The JSON export holds every version");
  });

  it("writes the versioned JSON shape with the whole tree", () => {
    const doc = JSON.parse(chatsToJson([linear, branched()], NOW)) as ExportJson;
    expect(doc.format).toBe(EXPORT_FORMAT);
    expect(doc.version).toBe(1);
    expect(doc.exported_at).toBe(NOW.toISOString());
    expect(doc.chats[0]).toEqual({
      id: linear.id,
      title: "Kiwi facts",
      created_at: "2026-11-20T09:00:00.000Z",
      updated_at: "2026-11-21T10:30:00.000Z",
      messages: [
        { role: "user", content: "Tell me about kiwis", attachment: { name: "kiwi.pdf" } },
        { role: "assistant", content: linear.messages[1]!.content, attachment: null },
      ],
      tree: null,
    });
    const tree = doc.chats[1]!.tree!;
    expect(tree.root).toBe("root");
    expect(tree.nodes.m1!.children).toEqual(["m2", "m3"]);
    expect(tree.nodes.m1!.active).toBe(1);
    expect(tree.nodes.m2!.message).toEqual({ role: "assistant", content: "Old answer", attachment: null, stopped: false });
    expect(tree.nodes.root!.message).toBeNull();
  });

  it("adds the memories, newest first, to the export of every chat, and leaves them out otherwise", () => {
    const memories = [
      { text: "I live in Lisbon", at: Date.parse("2026-11-20T08:00:00Z") },
      { text: "I prefer  metric\nunits", at: Date.parse("2026-11-21T08:00:00Z") },
    ];
    const doc = JSON.parse(chatsToJson([linear], NOW, memories)) as ExportJson;
    expect(doc.memories).toEqual([
      { text: "I prefer  metric\nunits", updated_at: "2026-11-21T08:00:00.000Z" },
      { text: "I live in Lisbon", updated_at: "2026-11-20T08:00:00.000Z" },
    ]);
    expect("memories" in (JSON.parse(chatsToJson([linear], NOW)) as ExportJson)).toBe(false);
    const md = chatsToMarkdown([linear], NOW, memories);
    expect(md).toContain("# Memories\n\n- I prefer metric units\n- I live in Lisbon\n");
    expect(md.indexOf("# Memories")).toBeLessThan(md.indexOf("# Kiwi facts"));
    expect(md.split("\n---\n").length).toBe(3);
    expect(chatsToMarkdown([linear], NOW, [])).not.toContain("# Memories");
  });

  it("puts every chat in one Markdown file, and names files after the title and date", () => {
    const md = chatsToMarkdown([linear, branched()], NOW);
    expect(md.startsWith("_Exported from Hush on 2026-11-22 18:40 UTC: 2 chats._")).toBe(true);
    expect(md.split("\n---\n").length).toBe(3);
    expect(exportFileName("Kiwi facts: the full story!", "md", NOW)).toBe("hush-kiwi-facts-the-full-story-2026-11-22.md");
    expect(exportFileName("Pastéis de nata", "json", NOW)).toBe("hush-pasteis-de-nata-2026-11-22.json");
    expect(exportFileName(null, "md", NOW)).toBe("hush-untitled-chat-2026-11-22.md");
    expect(exportFileName("所有", "md", NOW)).toBe("hush-chat-2026-11-22.md");
    expect(exportFileName("all", "json", NOW)).toBe("hush-chats-2026-11-22.json");
  });
});
