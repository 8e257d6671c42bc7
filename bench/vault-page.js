// The in-page half of bench/vault.bench.ts (plain JS, loaded with addScriptTag): fixtures and the
// timed cases, with the same WebCrypto calls as lib/browser/vault/crypto.ts. window.benchReady settles when set up.
window.benchReady = (async (argon) => {
  const w = window;
  const subtle = crypto.subtle;
  const enc = new TextEncoder();
  const raw = crypto.getRandomValues(new Uint8Array(32));
  const key = await subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
  const seal = async (k, ad, text) => {
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const ct = new Uint8Array(await subtle.encrypt({ name: "AES-GCM", iv, additionalData: enc.encode(ad) }, k, typeof text === "string" ? enc.encode(text) : text));
    return { iv, ct };
  };
  const titles = [];
  for (let i = 0; i < 1000; i++) titles.push({ ad: `["hush",2,"title","u","c${i}"]`, ...(await seal(key, `["hush",2,"title","u","c${i}"]`, `Chat number ${i} about something worth remembering`)) });
  const messages = [];
  for (let i = 0; i < 1000; i++) {
    const ad = `["hush",2,"content","u","c",${i},"${i % 2 ? "assistant" : "user"}"]`;
    messages.push({ ad, ...(await seal(key, ad, `Message ${i}: ${"lorem ipsum dolor sit amet ".repeat(i % 2 ? 24 : 4)}`)) });
  }
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const hashwasm = window.hashwasm;
  const pass = await hashwasm.argon2id({ password: "bench passphrase", salt, parallelism: argon.parallelism, iterations: argon.iterations, memorySize: argon.memoryKiB, hashLength: 32, outputType: "binary" });
  const passWrap = await seal(await subtle.importKey("raw", pass, "AES-GCM", false, ["encrypt"]), "wrap", raw);
  const prfInput = crypto.getRandomValues(new Uint8Array(32));
  const cred = (await navigator.credentials.create({
    publicKey: {
      rp: { id: "localhost", name: "bench" },
      user: { id: new Uint8Array(8), name: "bench", displayName: "bench" },
      challenge: crypto.getRandomValues(new Uint8Array(32)),
      pubKeyCredParams: [{ type: "public-key", alg: -7 }],
      authenticatorSelection: { userVerification: "required", residentKey: "preferred" },
      extensions: { prf: { eval: { first: prfInput } } },
    },
  }));
  const getPrf = async () => {
    const a = (await navigator.credentials.get({
      publicKey: {
        challenge: crypto.getRandomValues(new Uint8Array(32)),
        allowCredentials: [{ type: "public-key", id: cred.rawId }],
        userVerification: "required",
        extensions: { prf: { eval: { first: prfInput } } },
      },
    }));
    return new Uint8Array(a.getClientExtensionResults().prf.results.first);
  };
  const hkdf = async (ikm) =>
    subtle.deriveKey({ name: "HKDF", hash: "SHA-256", salt, info: enc.encode("hush vault passkey v2") }, await subtle.importKey("raw", ikm, "HKDF", false, ["deriveKey"]), { name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
  const prfWrap = await seal(await hkdf(await getPrf()), "wrap", raw);
  // A remembered device (docs/issues.md #21): the vault key wrapped under a non-extractable device key, then
  // under HKDF of the server's 32-byte share; the record lives in IndexedDB, the share comes back over HTTP.
  const share = crypto.getRandomValues(new Uint8Array(32));
  const shareKey = async (bytes) =>
    subtle.deriveKey({ name: "HKDF", hash: "SHA-256", salt: enc.encode("device"), info: enc.encode("hush vault device v1") }, await subtle.importKey("raw", bytes, "HKDF", false, ["deriveKey"]), { name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
  const deviceKey = await subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
  const inner = await seal(deviceKey, "device-key", raw);
  const innerBytes = new Uint8Array(12 + inner.ct.length);
  innerBytes.set(inner.iv);
  innerBytes.set(inner.ct, 12);
  const outer = await seal(await shareKey(share), "device-share", innerBytes);
  const idb = await new Promise((resolve, reject) => {
    const req = indexedDB.open("bench-vault", 1);
    req.onupgradeneeded = () => req.result.createObjectStore("devices");
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  const idbDo = (mode, work) =>
    new Promise((resolve, reject) => {
      const r = work(idb.transaction("devices", mode).objectStore("devices"));
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
  await idbDo("readwrite", (st) => st.put({ deviceKey, outer }, "u"));
  const list = document.getElementById("l");
  const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  const open = async (k, x) =>
    new TextDecoder().decode(await subtle.decrypt({ name: "AES-GCM", iv: x.iv, additionalData: enc.encode(x.ad) }, k, x.ct));
  w.bench = {
    reference: async () => {
      const data = new Uint8Array(16 * 1024 * 1024);
      await subtle.digest("SHA-256", data);
    },
    passphrase: async () => {
      const k = await hashwasm.argon2id({ password: "bench passphrase", salt, parallelism: argon.parallelism, iterations: argon.iterations, memorySize: argon.memoryKiB, hashLength: 32, outputType: "binary" });
      await subtle.decrypt({ name: "AES-GCM", iv: passWrap.iv, additionalData: enc.encode("wrap") }, await subtle.importKey("raw", k, "AES-GCM", false, ["decrypt"]), passWrap.ct);
    },
    passkey: async () => {
      await subtle.decrypt({ name: "AES-GCM", iv: prfWrap.iv, additionalData: enc.encode("wrap") }, await hkdf(await getPrf()), prfWrap.ct);
    },
    device: async () => {
      const record = await idbDo("readonly", (st) => st.get("u"));
      // The share's round trip, answered by the bench server (the app's route adds a session check and one UPDATE).
      await (await fetch("/share", { method: "POST" })).arrayBuffer();
      const opened = new Uint8Array(await subtle.decrypt({ name: "AES-GCM", iv: record.outer.iv, additionalData: enc.encode("device-share") }, await shareKey(share), record.outer.ct));
      await subtle.decrypt({ name: "AES-GCM", iv: opened.slice(0, 12), additionalData: enc.encode("device-key") }, record.deviceKey, opened.slice(12));
    },
    list: async () => {
      const names = await Promise.all(titles.map((t) => open(key, t)));
      list.replaceChildren(...names.map((n) => Object.assign(document.createElement("li"), { textContent: n })));
      await frame();
    },
    chat: async () => {
      const texts = await Promise.all(messages.map((m) => open(key, m)));
      list.replaceChildren(...texts.map((n) => Object.assign(document.createElement("p"), { textContent: n })));
      await frame();
    },
  };
})(window.benchArgon);
