/** The inline style sheet of an HTML export (system fonts only: nothing is loaded). */
export const EXPORT_PAGE_STYLES = `
:root{--bg:#f6f7f9;--panel:#fff;--ink:#1d2330;--dim:#6a7384;--line:#e2e6ec;--accent:#3b6fe0;--accent-soft:#e7eefc;
--user:#2f6fd6;--assistant:#1f9d6b;--tool:#7a8496;--system:#8b6bd6;--compaction:#d4890f;--compaction-soft:#fff6e3;
--branch:#0f9aa6;--branch-soft:#e4f6f7;--edit:#cf4f8d;--edit-soft:#fdebf3;--warn:#c2410c;--replaced:#b8bec9;
--mono:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;
--sans:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
@media (prefers-color-scheme:dark){:root{--bg:#12151b;--panel:#1a1e26;--ink:#e3e7ee;--dim:#8d96a7;--line:#2b313c;
--accent:#6d9bff;--accent-soft:#1f2a44;--compaction-soft:#2d2410;--branch-soft:#10292c;--edit-soft:#2f1523;--replaced:#4a515e}}
*{box-sizing:border-box}
html,body{margin:0;height:100%}
body{background:var(--bg);color:var(--ink);font:14px/1.45 var(--sans);display:flex;flex-direction:column}
button,select{font:inherit;font-size:12px;color:var(--ink);background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:3px 8px;cursor:pointer}
button:hover,select:hover{border-color:var(--accent)}
.page-head{padding:12px 20px 10px;background:var(--panel);border-bottom:1px solid var(--line)}
.page-head h1{margin:0 0 4px;font-size:18px;font-weight:650}
.usage-chart{padding:4px 20px;background:var(--panel);border-bottom:1px solid var(--line);font-size:13px;overflow-x:auto}
.usage-chart summary{cursor:pointer;color:var(--dim)}
.usage-chart p{margin:2px 0 6px;color:var(--dim);font-size:12px}
.logo{display:inline-block;font:600 11px var(--mono);color:#fff;background:var(--assistant);border-radius:4px;padding:2px 6px;vertical-align:3px;margin-right:4px}
.facts{margin:2px 0;color:var(--ink);font-size:13px}.dim{color:var(--dim);font-size:12px}
.layout{flex:1;min-height:0;display:grid;grid-template-columns:minmax(360px,42%) 1fr}
.tree-pane{display:flex;flex-direction:column;min-height:0;border-right:1px solid var(--line);background:var(--panel)}
.pane-head{display:flex;align-items:center;justify-content:space-between;gap:8px;padding:8px 12px;border-bottom:1px solid var(--line);flex-wrap:wrap}
.pane-head h2{font-size:13px;margin:0;text-transform:uppercase;letter-spacing:.06em;color:var(--dim)}
.controls{display:flex;gap:6px;align-items:center;flex-wrap:wrap}.controls label{font-size:12px;color:var(--dim)}
.leaf-picker{max-width:260px}
.legend{display:flex;flex-wrap:wrap;gap:10px;padding:6px 12px;font-size:11px;color:var(--dim);border-bottom:1px solid var(--line)}
.lg::before{content:"";display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:4px;vertical-align:-1px;background:var(--line)}
.lg.on-path::before{background:var(--accent)}.lg.active-path::before{background:var(--assistant)}.lg.replaced::before{background:var(--replaced)}
.lg.k-compaction::before{background:var(--compaction)}.lg.k-branch_summary::before{background:var(--branch)}.lg.k-context_edit::before{background:var(--edit)}
.tree{flex:1;overflow:auto;position:relative;font-size:12.5px;outline:none}
.tree-spacer{position:relative}.tree-layer{position:absolute;left:0;right:0;top:0}
.row{height:26px;display:flex;align-items:center;gap:6px;padding-right:10px;white-space:nowrap;cursor:pointer;border-left:3px solid transparent;color:var(--dim)}
.row:hover{background:var(--accent-soft)}
.row.on-path{color:var(--ink);border-left-color:var(--accent)}
.row.active-path:not(.on-path){border-left-color:var(--assistant)}
.row.replaced{color:var(--replaced);text-decoration:line-through;text-decoration-color:var(--replaced)}
.row.replaced .preview{text-decoration:inherit}
.row.selected{background:var(--accent-soft);font-weight:600}
.row.flash{animation:flash 1.2s ease-out}@keyframes flash{from{background:#ffe58a}}
.toggle{width:12px;text-align:center;color:var(--dim);flex:none}.toggle[data-fold]:hover{color:var(--accent)}
.dot{width:10px;color:var(--accent);font-size:9px;flex:none}
.rid{font:11.5px var(--mono);color:var(--dim);flex:none}
.kind{font-size:11px;padding:0 6px;border-radius:9px;background:var(--line);color:var(--ink);flex:none}
.k-user .kind{background:#dbe7fb;color:#1c4fa8}.k-assistant .kind{background:#d8f3e6;color:#12704b}
.k-toolResult .kind{background:#eceef2;color:#4d5564}.k-system .kind{background:#ece5fb;color:#5b3fb0}
.k-compaction .kind{background:var(--compaction);color:#fff}.k-branch_summary .kind{background:var(--branch);color:#fff}
.k-context_edit .kind{background:var(--edit);color:#fff}
.preview{overflow:hidden;text-overflow:ellipsis;flex:1;min-width:0}
.chip{font-size:11px;padding:0 6px;border-radius:4px;background:#fff1b8;color:#6b5000;border:1px solid #ecd47a;flex:none;max-width:160px;overflow:hidden;text-overflow:ellipsis}
.depth{font:10px var(--mono);color:var(--dim);flex:none}
.folded-count{font-size:11px;color:var(--accent);flex:none}
.mini{width:40px;height:5px;background:var(--line);border-radius:3px;flex:none;overflow:hidden}.mini i{display:block;height:100%;background:var(--accent);opacity:.7}
.context-pane{overflow:auto;padding:0 24px 40px;min-height:0}
.context-head{position:sticky;top:0;z-index:2;background:var(--bg);padding:14px 0 10px;border-bottom:1px solid var(--line);margin-bottom:12px}
.context-head h2{margin:0;font-size:16px;display:flex;align-items:center;gap:8px;flex-wrap:wrap}
.badge{font-size:11px;font-weight:500;padding:1px 7px;border-radius:9px;background:var(--line);color:var(--ink)}
.badge.active{background:var(--assistant);color:#fff}.badge.warn{background:var(--warn);color:#fff}
.rolebar{display:flex;height:8px;border-radius:4px;overflow:hidden;background:var(--line);margin-top:8px}
.rolebar i{display:block;height:100%}
.role-user{--c:var(--user)}.role-assistant{--c:var(--assistant)}.role-toolResult{--c:var(--tool)}.role-system{--c:var(--system)}
.role-compactionSummary{--c:var(--compaction)}.role-branchSummary{--c:var(--branch)}.role-custom{--c:var(--edit)}.role-bashExecution{--c:var(--tool)}
.rolebar i{background:var(--c,var(--dim))}
.idlink{font:11.5px var(--mono);padding:0 5px;border-radius:4px;color:var(--accent);background:transparent;border:1px solid transparent}
.idlink:hover{border-color:var(--accent)}
.msg{display:block;background:var(--panel);border:1px solid var(--line);border-left:4px solid var(--c,var(--dim));border-radius:8px;margin:0 0 10px;overflow:hidden}
.msg-head{display:flex;align-items:center;gap:8px;padding:7px 12px;font-size:12.5px;cursor:default;flex-wrap:wrap}
summary.msg-head{cursor:pointer;list-style:none}summary.msg-head::-webkit-details-marker{display:none}
summary.msg-head::before{content:"▸";color:var(--dim);font-size:11px}details[open]>summary.msg-head::before{content:"▾"}
.role{font-weight:650;color:var(--c,var(--ink))}
.peek{color:var(--dim);overflow:hidden;text-overflow:ellipsis;white-space:nowrap;flex:1;min-width:60px;font-family:var(--mono);font-size:11.5px}
.meta{color:var(--dim);font-size:11.5px;font-family:var(--mono)}
.tokens{margin-left:auto;display:flex;align-items:center;gap:8px;font:11.5px var(--mono);color:var(--dim)}
.tokbar{width:90px;height:6px;border-radius:3px;background:var(--line);overflow:hidden}.tokbar i{display:block;height:100%;background:var(--c,var(--accent))}
.run{color:var(--ink)}.reported{color:var(--assistant)}
.msg-body{padding:0 12px 10px}
pre.text{margin:6px 0 0;white-space:pre-wrap;word-break:break-word;font:12.5px/1.5 var(--mono)}
.role-user pre.text,.role-assistant pre.text{font:14px/1.55 var(--sans)}
details.thinking,details.call{margin:6px 0 0;border:1px dashed var(--line);border-radius:6px;padding:4px 8px;font-size:12.5px}
details.thinking>summary,details.call>summary{cursor:pointer;color:var(--dim)}
.call-name{font-weight:600;color:var(--ink)}.call-arg{font:12px var(--mono);color:var(--dim)}
pre.args{font-size:12px}
.image{margin-top:6px;font-size:12px;color:var(--dim)}
.empty{color:var(--dim);font-style:italic;margin:6px 0}
.boundary{border:1px solid var(--compaction);background:var(--compaction-soft);border-radius:10px;padding:0 0 12px;margin:0 0 14px;--c:var(--compaction)}
.boundary .range{margin:0 14px;font-size:13px}
.boundary pre.summary,.branch-summary pre.summary{margin:8px 14px 0;padding:10px 12px;background:var(--panel);border-radius:8px;border:1px solid var(--line);max-height:420px;overflow:auto}
.boundary .msg{margin:8px 14px 0}
.files{display:grid;grid-template-columns:1fr 1fr;gap:12px;margin:10px 14px 0}
.file-col h4{margin:0 0 4px;font-size:12px;text-transform:uppercase;letter-spacing:.05em;color:var(--dim)}
.file-col ul{margin:0;padding-left:18px;font:12px/1.5 var(--mono);max-height:180px;overflow:auto}
details.replaced{margin:10px 14px 0}details.replaced>summary{cursor:pointer;color:var(--compaction);font-weight:600;font-size:13px}
.replaced-list{margin-top:8px;opacity:.75}
.branch-summary{border:1px solid var(--branch);background:var(--branch-soft);border-radius:10px;padding:0 0 12px;margin:0 0 14px;--c:var(--branch)}
.edited{border:1px solid var(--edit);background:var(--edit-soft);border-radius:10px;padding:0 0 10px;margin:0 0 14px;--c:var(--edit)}
.compare{display:grid;grid-template-columns:1fr 1fr;gap:10px;padding:0 12px}
.side h5{margin:4px 0 6px;font-size:11px;text-transform:uppercase;letter-spacing:.05em;color:var(--dim)}
.side.raw{opacity:.8}
.meta-line{display:flex;gap:8px;align-items:center;font-size:12px;color:var(--dim);margin:0 0 8px 4px}
.meta-kind{font-weight:600}
.label-line{font-size:12px;color:var(--dim);margin:0 0 4px 4px;display:flex;gap:6px;align-items:center}
.sentinel{color:var(--dim);padding:20px;text-align:center}
.noscript{padding:20px}
@media (max-width:900px){.layout{grid-template-columns:1fr;grid-template-rows:40vh 1fr}.compare,.files{grid-template-columns:1fr}}
`;
