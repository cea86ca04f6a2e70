import { fileURLToPath } from 'node:url';
import { defineConfig, type UserConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './scripts/precompress.ts';
import { schemaAnnotations } from './scripts/schema-annotations.ts';
import { firstScreenModules, SCOUT_ENV } from './scripts/first-screen-chunks.ts';

/** What the admin needs of react-admin and MUI; MUI X (the date pickers) and MUI's French texts stay apart. */
const ADMIN_VENDOR =
  /node_modules[\\/](react-admin|ra-core|ra-ui-materialui|@tanstack|react-hook-form|@mui[\\/](?!x-|material[\\/]locale)|@emotion)[\\/]/;

export default defineConfig(async ({ command }): Promise<UserConfig> => {
  // The scouting build of scripts/first-screen-chunks.ts reads this file too: no vendor groups there.
  const scouting = process.env[SCOUT_ENV] === '1';
  const firstScreen =
    command === 'build' && !scouting
      ? await firstScreenModules(fileURLToPath(new URL('.', import.meta.url)), [
          'src/app/admin.tsx',
          'src/schema/ui/list-pages.tsx',
          // Lazy, but drawn with the first screen: the top bar's quick actions, the list's map button.
          'src/resources/tickets/quick-action-overlay.tsx',
          'src/resources/service-points/network-map-button.tsx',
        ])
      : undefined;
  const vendorGroups = scouting
    ? []
    : [
        // What the admin's first screen (layout, menu, a list) runs of packages, in one file rather than
        // dozens of small ones cut per importer: react-admin and MUI, and what they import (lodash, popper),
        // which the next group would otherwise take along with the record pages' parts.
        {
          name: 'admin-vendor',
          test: (id: string) =>
            firstScreen ? firstScreen.has(id) && /node_modules[\\/]/.test(id) : ADMIN_VENDOR.test(id),
          priority: 1,
        },
        // The rest of react-admin and MUI (forms, record pages, tabs, dialogs), in one file loaded with the
        // first page that needs any of it; MUI X (the date pickers) stays apart, loaded with the first date
        // input, and MUI's French texts, loaded with the French messages.
        { name: 'record-vendor', test: ADMIN_VENDOR, priority: 1 },
      ];
  return {
    plugins: scouting ? [react(), schemaAnnotations()] : [react(), precompress(), schemaAnnotations()],
    resolve: {
      // A polyfill of what every supported browser has (scripts/shims/object-entries.cjs).
      alias: [
        {
          find: /^object\.entries$/,
          replacement: fileURLToPath(new URL('./scripts/shims/object-entries.cjs', import.meta.url)),
        },
      ],
    },
    build: {
      outDir: 'dist',
      sourcemap: false,
      chunkSizeWarningLimit: 2000,
      rolldownOptions: {
        output: {
          codeSplitting: {
            groups: [
              // What the entry (the sign-in shell) imports statically, in one file.
              { name: 'shell', tags: ['$initial'], priority: 2 },
              ...vendorGroups,
              // The list pages with the engine modules they import (badges, lookups, dates), in one file rather
              // than a dozen small ones shared with the record pages, which then import them from it.
              { name: 'list-pages', test: /src[\\/]schema[\\/]ui[\\/]list-pages\.tsx$/, priority: 0 },
            ],
          },
        },
      },
    },
    server: {
      proxy: {
        '/webtool': 'http://127.0.0.1:8080',
        '/__identity': 'http://127.0.0.1:8080',
        '/__dev': 'http://127.0.0.1:8080',
        '/uploads': 'http://127.0.0.1:8080',
      },
    },
  };
});
