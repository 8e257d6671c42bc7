/**
 * The part of pa11y 9's API that e2e/pa11y.spec.ts uses (pa11y ships no types; @types/pa11y describes
 * pa11y 5). Options and result shapes from pa11y's README, "Configuration" and "JavaScript interface".
 */
declare module "pa11y" {
  interface Pa11yIssue {
    code: string;
    type: "error" | "warning" | "notice";
    typeCode: number;
    message: string;
    context: string;
    selector: string;
    runner?: string;
  }
  interface Pa11yResult {
    documentTitle: string;
    pageUrl: string;
    issues: Pa11yIssue[];
  }
  interface Pa11yOptions {
    runners?: string[];
    standard?: "WCAG2A" | "WCAG2AA" | "WCAG2AAA";
    includeWarnings?: boolean;
    includeNotices?: boolean;
    timeout?: number;
    wait?: number;
    viewport?: { width: number; height: number; deviceScaleFactor?: number; isMobile?: boolean; hasTouch?: boolean };
    headers?: Record<string, string>;
    actions?: string[];
    /** A puppeteer Browser to open the page in (pa11y leaves it open). */
    browser?: import("puppeteer").Browser;
    chromeLaunchConfig?: { executablePath?: string; args?: string[]; ignoreHTTPSErrors?: boolean };
    ignore?: string[];
  }
  function pa11y(url: string, options?: Pa11yOptions): Promise<Pa11yResult>;
  export default pa11y;
}
