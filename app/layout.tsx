import type { Metadata } from "next";
import localFont from "next/font/local";
import { connection } from "next/server";
import "./globals.css";

// next/font/google needs the network at build time; the variable Inter font comes from npm instead.
const inter = localFont({
  src: "../node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2",
  variable: "--font-inter",
  display: "swap",
});

export const metadata: Metadata = {
  title: { default: "MiSI human baseline", template: "%s · MiSI human baseline" },
  description: "Human-baseline studies for MiSI-Bench, a benchmark of microscopic spatial intelligence.",
  // Static files in public/ (favicon.ico is also what browsers ask for on their own).
  icons: {
    icon: [
      { url: "/favicon.ico", sizes: "any" },
      { url: "/icon.svg", type: "image/svg+xml" },
    ],
    apple: "/apple-touch-icon.png",
  },
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Pages render per request: proxy.ts gives each response a fresh CSP nonce, which Next puts on its scripts. The one
  // exception, app/participant-shell (force-static, which makes this call return at once), is sent with a CSP of its
  // inline scripts' hashes instead (lib/server/serving/participant-shell.ts).
  await connection();
  return (
    <html lang="en" className={inter.variable}>
      <body className="min-h-screen bg-slate-50 font-sans text-slate-900 antialiased">{children}</body>
    </html>
  );
}
