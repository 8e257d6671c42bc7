import fs from "node:fs";
import path from "node:path";
import { sri384 } from "./sri";

/** Subresource Integrity for the scripts Next's runtime adds in the browser later (docs/verify.md). */

const CHUNK_MAP_PATH = "/chunk-integrity.json";

const caches = new Map<string, { json: string; loader: string } | null>();

function scriptsUnder(root: string, dir = root, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) scriptsUnder(root, full, out);
    else if (entry.name.endsWith(".js")) out.push(path.relative(root, full).split(path.sep).join("/"));
  }
  return out;
}

/** A worker's Blob bootstrap: `importScripts` runs only bytes checked against the map. */
function workerBoot(): string {
  return `(function(){var C=self.__hushBoot;delete self.__hushBoot;var O=C.o,P="/_next/static/",I=self.importScripts.bind(self),F=self.fetch.bind(self),q=[],chain=Promise.resolve();` +
    `function hold(e){e.stopImmediatePropagation();q.push(e)}self.addEventListener("message",hold,true);` +
    `self.fetch=function(i,o){return F(typeof i==="string"||i instanceof URL?new URL(String(i),O).href:i,o)};` +
    `var M=F(O+C.p,{integrity:C.h,credentials:"omit"}).then(function(r){if(!r.ok)throw Error("chunk map "+r.status);return r.json()});` +
    `function abs(u){return new URL(u,O).href}` +
    `function blobOf(u){return M.then(function(m){var x=new URL(u,O),p=x.pathname.slice(P.length),h=x.origin===O&&x.pathname.indexOf(P)===0&&Object.prototype.hasOwnProperty.call(m,p)&&m[p];if(typeof h!=="string")throw Error("Refused a script the build does not list: "+u);return F(x.href,{integrity:h,credentials:"omit"})}).then(function(r){if(!r.ok)throw Error("script "+r.status);return r.blob()}).then(function(b){return URL.createObjectURL(b)})}` +
    `self.importScripts=function(){var us=[].slice.call(arguments),s=self.TURBOPACK_NEXT_CHUNK_URLS,lazy=us.length===1&&s&&s.length>0&&abs(s[s.length-1])===abs(us[0]);if(lazy)s.pop();var ps=Promise.all(us.map(blobOf));` +
    `chain=chain.then(function(){return ps}).then(function(bs){if(lazy)self.TURBOPACK_NEXT_CHUNK_URLS.push(us[0]);I.apply(self,bs)}).catch(function(e){setTimeout(function(){throw e})})};` +
    // A task later: Turbopack evaluates the worker's modules in microtasks after its chunks have run.
    `function release(){var c=chain;c.then(function(){setTimeout(function(){if(c!==chain)return release();self.removeEventListener("message",hold,true);q.splice(0).forEach(function(e){self.dispatchEvent(new MessageEvent("message",{data:e.data,ports:e.ports}))})})})}` +
    `self.importScripts(C.u);release()})();`;
}

/** A file the map does not list gets a digest no file has. */
function loaderSource(mapIntegrity: string): string {
  return `(()=>{var P="/_next/static/",N="sha384-${"A".repeat(64)}",m=null,w=[],E=Element.prototype,a=E.setAttribute,S=HTMLScriptElement.prototype,d=Object.getOwnPropertyDescriptor(S,"src");` +
    `fetch(${JSON.stringify(CHUNK_MAP_PATH)},{integrity:${JSON.stringify(mapIntegrity)},credentials:"omit"}).then(function(r){if(!r.ok)throw r.status;return r.json()}).then(function(j){m=j},function(){m={}}).then(function(){var q=w;w=null;q.forEach(function(f){f()})});` +
    `function k(v){try{var u=new URL(v,location.href),p=u.pathname.slice(P.length),h=u.origin===location.origin&&u.pathname.indexOf(P)===0&&Object.prototype.hasOwnProperty.call(m,p)&&m[p];return typeof h==="string"?h:N}catch(e){return N}}` +
    `function put(el,v,set){var go=function(){a.call(el,"integrity",k(String(v)));set()};w?w.push(go):go()}` +
    `Object.defineProperty(S,"src",{configurable:true,enumerable:d.enumerable,get:d.get,set:function(v){var t=this;put(t,v,function(){d.set.call(t,v)})}});` +
    `E.setAttribute=function(n,v){var t=this;if(t instanceof HTMLScriptElement&&String(n).toLowerCase()==="src"){put(t,v,function(){a.call(t,n,v)});return}return a.call(t,n,v)};` +
    `var W=window.Worker,B=${JSON.stringify(workerBoot())};if(W){var V=function(u,o){var x=new URL(String(u),location.href);if(x.origin!==location.origin||x.pathname.indexOf(P)!==0||(o&&o.type==="module"))throw new TypeError("Refused a worker the build does not check: "+x.href);` +
    `var b=URL.createObjectURL(new Blob(["self.__hushBoot="+JSON.stringify({o:location.origin,u:x.href,h:${JSON.stringify(mapIntegrity)},p:${JSON.stringify(CHUNK_MAP_PATH)}})+";"+B],{type:"text/javascript"}));return new W(b+x.hash,o)};V.prototype=W.prototype;window.Worker=V}})();`;
}

function build(distDir: string): { json: string; loader: string } | null {
  const cached = caches.get(distDir);
  if (cached !== undefined) return cached;
  let value: { json: string; loader: string } | null = null;
  const root = path.join(distDir, "static");
  try {
    // No page runs the build-id folder's files.
    const files = scriptsUnder(root, path.join(root, "chunks")).sort();
    if (files.length > 0) {
      const map: Record<string, string> = {};
      for (const file of files) map[file] = sri384(fs.readFileSync(path.join(root, file)));
      const json = JSON.stringify(map);
      value = { json, loader: loaderSource(sri384(json)) };
    }
  } catch {
    value = null;
  }
  caches.set(distDir, value);
  return value;
}

const defaultDist = () => path.join(process.cwd(), ".next");

export function chunkLoaderScript(distDir: string = defaultDist()): string | null {
  if (process.env.NODE_ENV !== "production") return null;
  return chunkLoaderOfBuild(distDir);
}

export function chunkLoaderOfBuild(distDir: string): string | null {
  return build(distDir)?.loader ?? null;
}

export function chunkMapJson(distDir: string = defaultDist()): string | null {
  return build(distDir)?.json ?? null;
}

export const LOADER_TAG = /<script>\(\(\)=>\{var P="\/_next\/static\/",N="sha384-A+",m=null,[^<]*<\/script>/g;
