/**
 * Two pages written against the view bindings of test/fixtures/apps-ui/weather-views
 * (`mcp-gen client --view ui://weather/forecast -o src/view`): one using every part correctly, one
 * whose each line (from line 5) is one mistake. view-typing.test.ts and
 * view-typing-compilers.slow.test.ts count the errors tsc finds in them.
 */
export const GOOD = `import { connectView, type DisplayMode, type View } from './view/view.js';

export async function page(): Promise<void> {
  const view: View = await connectView({ availableDisplayModes: ['inline', 'fullscreen'] });
  view.onToolInput((event) => {
    if (event.tool === 'show_forecast') {
      const city: string = event.arguments.city;
      const days: number | undefined = event.arguments.days;
      void [city, days];
    }
  });
  view.onToolInputPartial((event) => {
    const city: string | undefined = event.arguments.city;
    void city;
  });
  view.onToolResult((event) => {
    if (event.tool === 'show_forecast') {
      const temperatures: number[] = event.result.structuredContent.temperatures;
      void temperatures;
    }
  });
  view.onToolCancelled((reason: string) => void reason);
  view.onRejectedResult((error) => void error.issues);
  view.onHostContextChanged((context) => void context.locale);
  const fresh = await view.tools.refreshForecast({ city: 'Oslo' });
  const temperature: number = fresh.structuredContent.temperature;
  const text = await view.tools.getTime({});
  void text.content;
  const theme: 'light' | 'dark' | undefined = view.hostContext.theme;
  const width: number | undefined = view.hostContext.containerDimensions?.maxWidth;
  void [theme, width, view.hostContext.displayMode, view.hostContext.locale];
  await view.openLink('https://example.com');
  await view.sendMessage('Show me Oslo');
  await view.updateModelContext({ structuredContent: { temperature } });
  const mode: DisplayMode = await view.requestDisplayMode('fullscreen');
  void mode;
  view.reportSize(320, 200);
}
`;

/** Each line a mistake, one error each. */
export const MISTAKES = [
  `  await view.tools.refreshForecast({ town: 'Oslo' });`,
  `  await view.tools.refreshForecast({ city: 7 });`,
  `  const wrong: string = (await view.tools.refreshForecast({ city: 'Oslo' })).structuredContent.temperature; void wrong;`,
  `  await view.tools.deleteEverything({});`,
  `  view.onToolResult((event) => { if (event.tool === 'refresh_forecast') { const all: number[] = event.result.structuredContent.temperature; void all; } });`,
  `  await view.requestDisplayMode('maximized');`,
];
export const BAD = `import { connectView } from './view/view.js';

export async function page(): Promise<void> {
  const view = await connectView();
${MISTAKES.join('\n')}
}
`;
