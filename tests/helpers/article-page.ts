import { prng } from "../../e2e/helpers/prng";

/**
 * A deterministic, article-like HTML page of about `bytes` bytes (docs/issues.md #51's extraction and memory
 * benchmarks, the extraction pool's tests): a head with metadata, styles and scripts, a navigation bar, a sidebar
 * of links, an article of sections (headings, paragraphs with links and emphasis, lists, quotes, figures, tables,
 * code), comments and a footer, the way a news or blog page is built. The same `bytes` and `seed` give the same page.
 */
const WORDS = (
  "the of and to in a is that for it as was with be by on not he this are or his from at which but have an they " +
  "you were her she there been one all we their has would when if so no will more can about said out up them " +
  "some could into time only new other then its also two these may first any like now my over such our man me " +
  "even most made after well back through where much before right too means old same tell boy follow came want " +
  "show around form three small set put end does another large must big such because turn here why ask went men " +
  "read need land different home us move try kind hand picture again change off play spell air away animal house " +
  "point page letter mother answer found study still learn should world high every near add food between own below " +
  "country plant last school father keep tree never start city earth eye light thought head under story saw left " +
  "river island forest parrot kakapo conservation population breeding season survey ranger predator habitat"
).split(" ");


/**
 * The page's HTML.
 * @param bytes the size aimed at, UTF-8 bytes (the page ends at the first section past it, so a little over)
 * @param seed the generator's seed
 */
export function articlePage(bytes: number, seed = 51): string {
  const rnd = prng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const words = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(" ");
  const sentence = () => {
    const s = words(8 + Math.floor(rnd() * 18));
    return s[0]!.toUpperCase() + s.slice(1) + ".";
  };
  const inline = () => {
    const r = rnd();
    if (r < 0.15) return ` <a href="https://example.org/${words(2).replace(/ /g, "-")}?ref=${Math.floor(rnd() * 1e6)}">${words(3)}</a>`;
    if (r < 0.25) return ` <em>${words(3)}</em>`;
    if (r < 0.32) return ` <strong>${words(2)}</strong>`;
    if (r < 0.36) return ` <code>${pick(WORDS)}_${pick(WORDS)}()</code>`;
    return "";
  };
  const paragraph = () => `<p>${Array.from({ length: 3 + Math.floor(rnd() * 5) }, () => sentence() + inline()).join(" ")}</p>`;
  const list = () => {
    const tag = rnd() < 0.5 ? "ul" : "ol";
    return `<${tag}>${Array.from({ length: 3 + Math.floor(rnd() * 5) }, () => `<li>${sentence()}${inline()}</li>`).join("")}</${tag}>`;
  };
  const table = () => {
    const cols = 3 + Math.floor(rnd() * 3);
    const head = `<thead><tr>${Array.from({ length: cols }, () => `<th>${pick(WORDS)}</th>`).join("")}</tr></thead>`;
    const rows = Array.from({ length: 4 + Math.floor(rnd() * 6) }, () => `<tr>${Array.from({ length: cols }, () => `<td>${Math.floor(rnd() * 10_000) / 100}</td>`).join("")}</tr>`);
    return `<table class="data">${head}<tbody>${rows.join("")}</tbody></table>`;
  };
  const figure = (i: number) =>
    `<figure class="wp-block-image"><img src="https://cdn.example.org/img/${i}.jpg" alt="${words(4)}" width="800" height="533" loading="lazy"><figcaption>${sentence()}</figcaption></figure>`;
  const code = () => `<pre><code class="language-python">def ${pick(WORDS)}(x):\n    return x * ${Math.floor(rnd() * 100)}\n\nprint(${pick(WORDS)}(${Math.floor(rnd() * 10)}))</code></pre>`;
  const section = (i: number) => {
    const parts = [`<h2 id="s${i}">${words(4)}</h2>`];
    for (let k = 0; k < 4 + Math.floor(rnd() * 4); k++) {
      const r = rnd();
      parts.push(paragraph());
      if (r < 0.15) parts.push(list());
      else if (r < 0.22) parts.push(`<blockquote><p>${sentence()} ${sentence()}</p></blockquote>`);
      else if (r < 0.28) parts.push(figure(i * 10 + k));
      else if (r < 0.32) parts.push(table());
      else if (r < 0.35) parts.push(code());
      else if (r < 0.42) parts.push(`<h3>${words(3)}</h3>`);
    }
    return `<section class="article-section">${parts.join("\n")}</section>`;
  };
  const navLinks = Array.from({ length: 60 }, (_, i) => `<li class="menu-item"><a href="/category/${i}">${words(2)}</a></li>`).join("");
  const sidebar = Array.from({ length: 40 }, (_, i) => `<li><a href="/story/${i}">${words(6)}</a> <span class="date">2024-0${1 + (i % 9)}-1${i % 10}</span></li>`).join("");
  const head =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${words(6)} | The Example Times</title>` +
    `<meta name="description" content="${sentence()}"><meta property="og:title" content="${words(6)}">` +
    `<link rel="stylesheet" href="/static/site.css"><style>${".c{color:#333;margin:0 auto;max-width:42rem}".repeat(200)}</style>` +
    `<script>window.dataLayer=[${Array.from({ length: 200 }, (_, i) => `{"e":"v${i}","k":"${words(2)}"}`).join(",")}];</script>` +
    `</head><body class="single-post"><header class="site-header"><a class="logo" href="/">The Example Times</a>` +
    `<nav class="main-nav"><ul>${navLinks}</ul></nav></header>` +
    `<div class="layout"><aside class="sidebar"><h4>Most read</h4><ul>${sidebar}</ul></aside>` +
    `<main><article class="post"><header><h1 class="entry-title">${words(7)}</h1><p class="byline">By <a href="/author/a">${words(2)}</a>, <time datetime="2024-05-01">1 May 2024</time></p></header>` +
    `<div class="entry-content">`;
  const tail =
    `</div></article>` +
    `<section class="comments"><h3>Comments</h3>${Array.from({ length: 12 }, (_, i) => `<div class="comment"><b>${pick(WORDS)}${i}</b><p>${sentence()}</p><a href="#reply-${i}">Reply</a></div>`).join("")}</section>` +
    `</main></div><footer class="site-footer"><ul>${navLinks}</ul><p>© 2024 The Example Times</p></footer>` +
    `<script src="/static/analytics.js" async></script></body></html>`;
  const body: string[] = [];
  let size = Buffer.byteLength(head) + Buffer.byteLength(tail);
  for (let i = 0; size < bytes; i++) {
    const s = section(i);
    body.push(s);
    size += Buffer.byteLength(s) + 1;
  }
  return head + body.join("\n") + tail;
}
