import type { Metadata } from "next";
import type { ReactNode } from "react";
import { HydrationMarker } from "@/components/hydration-marker";
import "./globals.css";

export const metadata: Metadata = {
  title: "Tollbooth",
  description: "Usage limits that hold under load, a meter you can prove, and billing webhooks applied exactly once.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">
        {children}
        <HydrationMarker />
      </body>
    </html>
  );
}
