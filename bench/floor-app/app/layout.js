/** The floor app's root layout: nothing but the document (bench/perf/run.ts). */
export const metadata = { title: "Floor", robots: { index: false, follow: false } };

export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
