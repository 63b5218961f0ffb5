// The trust page (plain HTTP, `caddie serve --trust-page`): the QR code of `caddie web link` carries the HTTPS
// sign-in link in this page's fragment, which the browser never sends over the air; the "Continue" link takes it,
// if it leads to this same host over HTTPS.
const link = document.getElementById('continue');
const next = decodeURIComponent(window.location.hash.slice(1));
try {
  const url = new URL(next);
  if (url.protocol === 'https:' && url.hostname === window.location.hostname && url.pathname === '/signin'
      && /^[A-Za-z0-9_-]+$/.test(url.searchParams.get('t') ?? '')) {
    link.href = url.href;
    link.textContent = 'Continue and sign in over HTTPS';
  }
} catch {
  // No link in the fragment: "Continue" opens the node's HTTPS address.
}
