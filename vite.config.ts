import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 2000,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Only what the entry (the sign-in shell) needs as a whole goes in a named group: a group
          // is loaded as one file, so a library the admin alone uses (react-admin, MUI's data
          // components) must stay out of these, in the lazy chunks Rolldown cuts by itself.
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom)[\\/]/ },
            { name: 'amplify-auth', test: /node_modules[\\/](aws-amplify|@aws-amplify)[\\/]/ },
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
});
