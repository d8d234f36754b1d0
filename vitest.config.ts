import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/generate-outputs.ts'],
    // Interop tests spawn real servers and the official SDK; give them room on a 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
