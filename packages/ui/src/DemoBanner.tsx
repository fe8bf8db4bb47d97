/**
 * The banner of a demo deployment (KEEL_DEMO, ADR 0041): one line on every page of both apps saying
 * that nothing here is real money, from the server's public `GET /home/index/site`. Nothing at all
 * when the deployment is not a demo, or before the server has said so. A status (read out by screen
 * readers), placed in the page's flow by the app's shell so that it never covers content; its text
 * is the app's translation. The apps style `.demo-banner` (dark on amber, about 10:1).
 */
export function DemoBanner({ demo, text }: { demo: boolean; text: string }) {
  if (!demo) return null;
  return (
    <div className="demo-banner" role="status" data-testid="demo-banner">
      {text}
    </div>
  );
}
