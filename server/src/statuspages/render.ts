// The HTML of /status/{slug}: server-rendered from the page's data, no console code. Small inline
// CSS (readable on a phone), uptime bars as one SVG per entry with a rectangle per run of alike
// days, and a tiny inline script that reads GET /api/status/{slug} every 60 s and, when its version
// (ETag) changed, swaps in the page's fresh HTML.
import { createHash } from 'node:crypto';
import { BAR_DAYS } from './figures.js';
import { ENTRY_TEXT, type PublicEntry, type PublicPage } from './page.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** The data's version (its time left out): the ETag of the page and its JSON, which the script compares. */
export function dataVersion(page: PublicPage): string {
  return createHash('sha1')
    .update(JSON.stringify({ ...page, updated_at: null }))
    .digest('base64url')
    .slice(0, 20);
}

/** A day's bar colour: g(ood) ≥ 99.5 %, w(arn) ≥ 95 %, b(ad) below, n(o data). */
function dayClass(v: number | null): string {
  if (v === null) return 'n';
  if (v >= 99.5) return 'g';
  if (v >= 95) return 'w';
  return 'b';
}

function bars(days: (number | null)[]): string {
  let out = '';
  let start = 0;
  for (let i = 1; i <= days.length; i++) {
    const cls = dayClass(days[start] ?? null);
    if (i < days.length && dayClass(days[i] ?? null) === cls) continue;
    out += `<rect class="${cls}" x="${start}" width="${i - start}" height="1"/>`;
    start = i;
  }
  return `<svg class="bars" viewBox="0 0 ${BAR_DAYS} 1" preserveAspectRatio="none" aria-hidden="true">${out}<rect width="${BAR_DAYS}" height="1" fill="url(#gap)"/></svg>`;
}

function entry(e: PublicEntry): string {
  const uptime = e.uptime === null ? 'No data' : `${e.uptime.toFixed(2)}% uptime`;
  return `<li data-kind="${e.kind}" data-id="${e.id}"><div class="row"><span class="name">${escapeHtml(e.name)}</span><span class="st s-${e.state}">${ENTRY_TEXT[e.state]}</span></div>${bars(e.days)}<div class="meta"><span>${BAR_DAYS} days ago</span><span>${uptime}</span><span>Today</span></div></li>`;
}

const when = (iso: string) => `<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;

const CSS = `*{box-sizing:border-box}body{margin:0;font:15px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1d2433;background:#f5f6f8}
main{max-width:860px;margin:0 auto;padding:16px}header{display:flex;gap:12px;align-items:center;margin:8px 0 16px}
header img{max-height:48px;max-width:160px}h1{font-size:1.5rem;margin:0}h2{font-size:1.05rem;margin:0 0 8px}
.desc{margin:0 0 12px;color:#4a5468}.card{background:#fff;border:1px solid #dde1e8;border-radius:8px;padding:12px 14px;margin:0 0 14px}
.overall{font-weight:600;font-size:1.1rem;color:#fff;border-radius:8px;padding:14px;margin:0 0 14px}
.o-operational{background:#1f8f5f}.o-degraded{background:#c98a12}.o-partial_outage{background:#d46a1f}.o-major_outage{background:#c83a3a}.o-maintenance{background:#3b6fd4}.o-unknown{background:#6b7280}
ul{list-style:none;margin:0;padding:0}li{padding:10px 0;border-top:1px solid #eef0f4}li:first-child{border-top:0}
.row{display:flex;justify-content:space-between;gap:8px}.name{font-weight:500;overflow-wrap:anywhere}.st{white-space:nowrap;font-weight:600}
.s-operational{color:#1f8f5f}.s-degraded{color:#b07400}.s-down{color:#c83a3a}.s-maintenance{color:#3b6fd4}.s-unknown{color:#6b7280}
.bars{display:block;width:100%;height:26px;margin:6px 0 2px}.g{fill:#2fb37a}.w{fill:#e2a03f}.b{fill:#d9534f}.n{fill:#d3d8e0}
.meta{display:flex;justify-content:space-between;font-size:.75rem;color:#6b7280}.sev{text-transform:capitalize}
.small{font-size:.85rem;color:#4a5468}footer{text-align:center;font-size:.85rem;color:#6b7280;margin:18px 0}
@media(max-width:480px){main{padding:10px}.meta span:first-child,.meta span:last-child{display:none}.meta{justify-content:flex-end}}`;

/** Reads the JSON every 60 s; when its version (ETag) changed, re-reads this page and swaps <main>. */
const SCRIPT = `(function(){var b=document.body;
function tick(){fetch(b.getAttribute('data-json'),{credentials:'same-origin',cache:'no-store'}).then(function(r){var e=r.ok&&(r.headers.get('etag')||'').replace(/"/g,'');if(!e||e===b.getAttribute('data-v'))return;return fetch(location.href,{credentials:'same-origin',cache:'no-store'}).then(function(r){return r.ok?r.text():null}).then(function(h){if(!h)return;var d=new DOMParser().parseFromString(h,'text/html');var m=d.querySelector('main');if(!m)return;document.querySelector('main').replaceWith(m);b.setAttribute('data-v',d.body.getAttribute('data-v'))})}).catch(function(){})}
setInterval(tick,60000)})();`;

export function renderStatusPage(page: PublicPage): string {
  const maintenance = page.maintenance.length
    ? `<section class="card" id="maintenance"><h2>Maintenance</h2><ul>${page.maintenance
        .map(
          (m) =>
            `<li><div class="row"><span class="name">${escapeHtml(m.name)}</span><span class="st s-maintenance">${m.active ? 'In progress' : 'Scheduled'}</span></div>${m.message ? `<div>${escapeHtml(m.message)}</div>` : ''}<div class="small">${when(m.start)} – ${when(m.end)}</div></li>`,
        )
        .join('')}</ul></section>`
    : '';
  const incidents = page.incidents.length
    ? `<section class="card" id="incidents"><h2>Open incidents</h2><ul>${page.incidents
        .map(
          (i) =>
            `<li><div class="row"><span class="name">${escapeHtml(i.title)}</span><span class="st s-down sev">${escapeHtml(i.severity)}</span></div><div class="small">Status: ${escapeHtml(i.status)} · since ${when(i.created_at)}${i.entries.length ? ` · affects ${escapeHtml(i.entries.join(', '))}` : ''}</div></li>`,
        )
        .join('')}</ul></section>`
    : '';
  const sections = page.sections
    .map(
      (s) =>
        `<section class="card"><h2>${escapeHtml(s.name)}</h2>${s.entries.length ? `<ul>${s.entries.map(entry).join('')}</ul>` : '<p class="small">Nothing listed here yet.</p>'}</section>`,
    )
    .join('');
  const logo = page.logo ? `<img src="${escapeHtml(page.logo)}" alt="">` : '';
  const json = `/api/status/${page.slug}`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(page.title)} status</title><style>${CSS}</style></head><body data-json="${json}" data-v="${dataVersion(page)}"><svg width="0" height="0" style="position:absolute" aria-hidden="true"><defs><pattern id="gap" width="1" height="1" patternUnits="userSpaceOnUse"><rect x=".82" width=".18" height="1" fill="#fff"/></pattern></defs></svg><main><header>${logo}<h1>${escapeHtml(page.title)}</h1></header>${page.description ? `<p class="desc">${escapeHtml(page.description)}</p>` : ''}<div class="overall o-${page.state}" id="overall" data-state="${page.state}">${page.state_text}</div>${maintenance}${incidents}${sections}<footer>${page.footer ? `${escapeHtml(page.footer)}<br>` : ''}Updated ${when(page.updated_at)}</footer></main><script>${SCRIPT}</script></body></html>`;
}

/** The page a private status page shows to someone not signed in (when not redirected to sign in). */
export function renderMessage(title: string, message: string, status: number): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${CSS}</style></head><body><main><div class="card"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p><p class="small">HTTP ${status}</p></div></main></body></html>`;
}
