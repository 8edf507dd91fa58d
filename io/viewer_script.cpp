#include "kinevo/io/detail/viewer_script.hpp"

namespace kinevo::io {

const char* const viewer_style = R"CSS(
body { font-family: sans-serif; margin: 1em; }
#controls { margin: 0.5em 0; display: flex; flex-wrap: wrap; gap: 0.6em; align-items: center; }
#time { width: 360px; }
#view { position: relative; border: 1px solid #ccc; display: inline-block; }
#view canvas { display: block; }
#labels { position: absolute; left: 0; top: 0; pointer-events: none; }
.label { position: absolute; font-size: 12px; color: #222; background: rgba(255,255,255,0.7);
         padding: 0 2px; white-space: nowrap; transform: translate(4px, -50%); }
.axis-label { color: #000; font-weight: bold; }
.panel-label { transform: translate(-50%, -100%); font-size: 14px; }
.joint-label { transform: translate(calc(-100% - 4px), -50%); color: #8a4a00; }
#legend { font-size: 13px; color: #444; margin-top: 0.3em; max-width: 960px; }
#trails { max-height: 12em; overflow: auto; font-size: 13px; }
#error { color: #b00; font-weight: bold; }
)CSS";

const char* const viewer_script = R"JS(
const D = JSON.parse(document.getElementById('scene-data').textContent);
const P = D.planar ? 3 : 7, N = D.solids.length, F = D.times.length;
const args = new URLSearchParams(location.hash.slice(1));
const view = document.getElementById('view');
const W = Math.max(320, Math.min(window.innerWidth - 40, 960)), H = Math.round(W * 0.62);
let renderer;
try {
  renderer = new THREE.WebGLRenderer({antialias: true, preserveDrawingBuffer: true});
} catch (e) {
  document.getElementById('error').textContent =
      'This browser has no WebGL, which the 3D view needs: ' + e.message;
  throw e;
}
renderer.setPixelRatio(1);
renderer.setSize(W, H);
view.insertBefore(renderer.domElement, view.firstChild);
const scene = new THREE.Scene();
scene.background = new THREE.Color(0xffffff);
const Z = new THREE.Vector3(0, 0, 1), up = new THREE.Vector3(...D.up).normalize();
// Sky light from up (planar models: from the viewer, +z), so the side one sees is lit.
const sky = new THREE.HemisphereLight(0xffffff, 0x707070, 0.85);
sky.position.copy(D.planar ? Z : up);
scene.add(sky);
const sun = new THREE.DirectionalLight(0xffffff, 0.5);
scene.add(sun);

// Pose of solid s at frame k: planar x y phi (a turn about z) or spatial x y z e0 e1 e2 e3.
const tp = new THREE.Vector3(), tq = new THREE.Quaternion();
function pose(k, s, pos, quat) {
  const f = D.poses[k], o = s * P;
  if (D.planar) { pos.set(f[o], f[o + 1], 0); quat.setFromAxisAngle(Z, f[o + 2]); }
  else { pos.set(f[o], f[o + 1], f[o + 2]); quat.set(f[o + 4], f[o + 5], f[o + 6], f[o + 3]); }
}
// A point of a joint or link in the world at frame k (ground points are global).
function world(p, k, out) {
  out.set(p.at[0], p.at[1], p.at[2]);
  if (p.solid < 0) return out;
  pose(k, p.solid, tp, tq);
  return out.applyQuaternion(tq).add(tp);
}
// A joint is drawn at its point on a body (on j when i is ground), so that `body_i = "ground"`
// and `body_j = "ground"` draw the same; its ground point gets an anchor.
const jointPoint = j => (j.i.solid >= 0 ? j.i : j.j);

// The scene's extent over the motion (every frame up to 400 sampled), for sizes and the camera.
const box = new THREE.Box3(), v = new THREE.Vector3();
const stride = Math.max(1, Math.floor(F / 400));
for (let k = 0; k < F; k += stride) {
  for (let s = 0; s < N; ++s) { pose(k, s, v, tq); box.expandByPoint(v); }
  for (const j of D.joints) { box.expandByPoint(world(j.i, k, v)); box.expandByPoint(world(j.j, k, v)); }
  for (const l of D.links) { box.expandByPoint(world(l.i, k, v)); box.expandByPoint(world(l.j, k, v)); }
}
let L = box.getSize(v).length();
for (const s of D.solids) L = Math.max(L, 0.5 * Math.max(...s.size));
if (!(L > 0)) L = 1;
if (D.planar) { box.min.z = Math.min(box.min.z, -0.05 * L); box.max.z = Math.max(box.max.z, 0.05 * L); }
const centre = box.getCenter(new THREE.Vector3());

// Solids: one InstancedMesh per (shape, kind); a solid with no size (a particle, a body with no
// inertia) gets one from the scene's extent.
const unit = {
  box: new THREE.BoxBufferGeometry(1, 1, 1),
  cylinder: new THREE.CylinderBufferGeometry(0.5, 0.5, 1, 32).rotateX(Math.PI / 2),
  sphere: new THREE.SphereBufferGeometry(0.5, 24, 16)
};
const material = c => new THREE.MeshStandardMaterial({color: c, roughness: 0.6, metalness: 0.1});
// Bodies a little transparent, so that the joints inside them show.
const bodyMat = new THREE.MeshStandardMaterial({color: 0x4a78c8, roughness: 0.6, metalness: 0.1,
                                               transparent: true, opacity: 0.8}), particleMat = material(0xc0392b);
const jointMat = material(0xe08a1e), groundMat = material(0x707070);
const groups = new Map(), solidSlot = [];
D.solids.forEach((s, i) => {
  const key = s.shape + (s.particle ? ':p' : ':b');
  if (!groups.has(key)) groups.set(key, {shape: s.shape, mat: s.particle ? particleMat : bodyMat, members: []});
  const g = groups.get(key);
  const fallback = (s.particle ? 0.04 : 0.06) * L;
  const size = s.size.map(x => (x > 0 ? x : fallback));
  solidSlot.push({group: g, index: g.members.length,
                  scale: new THREE.Vector3(...size),
                  rot: new THREE.Quaternion(s.rot[1], s.rot[2], s.rot[3], s.rot[0])});
  g.members.push(i);
});
function instanced(shape, mat, count) {
  const m = new THREE.InstancedMesh(unit[shape], mat, Math.max(count, 1));
  m.count = count;
  m.frustumCulled = false;  // the instances move: the unit geometry's bounds do not hold them
  scene.add(m);
  return m;
}
for (const g of groups.values()) g.mesh = instanced(g.shape, g.mat, g.members.length);

// Joints: a cylinder along the joint's axis (revolute, cylindrical, translational) or a ball.
const withAxis = j => j.axis.some(x => x !== 0);
const jointBalls = D.joints.filter(j => !withAxis(j)), jointPins = D.joints.filter(withAxis);
const ballMesh = instanced('sphere', jointMat, jointBalls.length);
const pinMesh = instanced('cylinder', jointMat, jointPins.length);
// Joint markers: a fraction of the scene, but no larger than a quarter of a typical body
// (a chain of hundreds of links would otherwise be all joints).
const sized = D.solids.filter(s => !s.particle && Math.max(...s.size) > 0).map(s => Math.max(...s.size)).sort((x, y) => x - y);
const J = sized.length ? Math.min(0.035 * L, 0.25 * sized[sized.length >> 1]) : 0.035 * L;
// Ground anchors: grey blocks at every point fixed to ground.
const anchors = [];
for (const j of D.joints) for (const p of [j.i, j.j]) if (p.solid < 0) anchors.push(p);
for (const l of D.links) for (const p of [l.i, l.j]) if (p.solid < 0) anchors.push(p);
const anchorMesh = instanced('box', groundMat, anchors.length);
const m4 = new THREE.Matrix4(), q2 = new THREE.Quaternion(), one = new THREE.Vector3(1, 1, 1);
anchors.forEach((p, i) => {
  anchorMesh.setMatrixAt(i, m4.compose(new THREE.Vector3(...p.at), q2.set(0, 0, 0, 1),
                                       new THREE.Vector3(1.2 * J, 1.2 * J, 1.2 * J)));
});

// Lines: each body's sticks from its centre to its joints, rods, springs, joint axes; one
// geometry, rewritten at every frame.
const sticks = [];
for (const j of D.joints) for (const p of [j.i, j.j]) if (p.solid >= 0 && !D.solids[p.solid].particle) sticks.push(p);
for (const l of D.links) for (const p of [l.i, l.j]) if (p.solid >= 0 && !D.solids[p.solid].particle) sticks.push(p);
const COILS = 24;
const segments = sticks.length + D.links.reduce((n, l) => n + (l.spring ? COILS + 2 : 1), 0) + jointPins.length;
const linePos = new Float32Array(6 * segments), lineCol = new Float32Array(6 * segments);
const lineGeo = new THREE.BufferGeometry();
lineGeo.setAttribute('position', new THREE.BufferAttribute(linePos, 3));
lineGeo.setAttribute('color', new THREE.BufferAttribute(lineCol, 3));
const lines = new THREE.LineSegments(lineGeo, new THREE.LineBasicMaterial({vertexColors: true}));
lines.frustumCulled = false;
scene.add(lines);

// Floor grid (perpendicular to up below the motion; planar models: the XY plane behind them),
// world axes, their labels with units.
const raw = L / 10, mag = Math.pow(10, Math.floor(Math.log10(raw)));
const spacing = [1, 2, 5, 10].map(x => x * mag).find(x => x >= raw);
const cells = 2 * Math.ceil(0.75 * L / spacing);
const grid = new THREE.GridHelper(cells * spacing, cells, 0xb0b0b0, 0xe0e0e0);
const normal = D.planar ? Z : up;
grid.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), normal);
if (D.planar) grid.position.set(centre.x, centre.y, box.min.z);
else {
  // The lowest corner of the motion's box along up.
  let low = Infinity;
  for (let c = 0; c < 8; ++c) {
    low = Math.min(low, v.set(c & 1 ? box.max.x : box.min.x, c & 2 ? box.max.y : box.min.y,
                              c & 4 ? box.max.z : box.min.z).dot(up));
  }
  grid.position.copy(centre).addScaledVector(up, low - centre.dot(up));
}
scene.add(grid);
const axisLength = 2 * spacing;
scene.add(new THREE.AxesHelper(axisLength));
document.getElementById('legend').textContent =
    'Grid squares ' + spacing.toPrecision(3).replace(/\.?0+$/, '') + ' ' + D.length_unit +
    '; world axes x (red), y (green), z (blue), ' + axisLength.toPrecision(3).replace(/\.?0+$/, '') +
    ' ' + D.length_unit + ' long' + (D.planar ? '; the planar model lies in the XY plane' : '') +
    '. Drag: turn, wheel: zoom, right drag or shift drag: pan.';

// Camera: planar models seen face on, spatial ones from three quarters, framing the motion.
const camera = new THREE.PerspectiveCamera(35, W / H, L / 200, L * 200);
camera.up.copy(D.planar ? new THREE.Vector3(D.up[0], D.up[1], 0).normalize() : up);
const distance = 0.75 * L / Math.tan(35 * Math.PI / 360);
function homeView() {
  let dir = Z.clone();
  if (!D.planar) {
    const e1 = new THREE.Vector3(1, 0, 0).cross(up).lengthSq() > 0.1 ? new THREE.Vector3(1, 0, 0)
                                                                     : new THREE.Vector3(0, 1, 0);
    e1.addScaledVector(up, -e1.dot(up)).normalize();
    const e2 = up.clone().cross(e1);
    dir = e1.multiplyScalar(1.0).addScaledVector(e2, -1.3).addScaledVector(up, 0.7).normalize();
  }
  camera.position.copy(centre).addScaledVector(dir, distance);
  camera.lookAt(centre);
  sun.position.copy(camera.position).addScaledVector(up, L);
}
homeView();
const controls = new THREE.OrbitControls(camera, renderer.domElement);
controls.target.copy(centre);
controls.screenSpacePanning = true;
controls.update();

// Labels on demand: a DOM element per solid and joint, and the axes' names with units.
const labelBox = document.getElementById('labels'), labels = [];
function label(text, cls, at) {
  const e = document.createElement('div');
  e.className = 'label ' + cls; e.textContent = text; labelBox.appendChild(e);
  labels.push({e, at, cls});
}
['x', 'y', 'z'].forEach((a, i) => {
  const at = new THREE.Vector3(); at.setComponent(i, axisLength * 1.08);
  label(a + ' [' + D.length_unit + ']', 'axis-label', () => at);
});
// Panels laid side by side (several mechanisms on one clock): their titles, always shown.
for (const p of D.panels) {
  const at = new THREE.Vector3(...p.caption_at);
  label(p.title, 'axis-label panel-label', () => at);
}
const solidAt = D.solids.map(() => new THREE.Vector3());
const jointAt = D.joints.map(() => new THREE.Vector3());
D.solids.forEach((s, i) => label(s.name, 'named', () => solidAt[i]));
D.joints.forEach((j, i) => label(j.name, 'joint-label', () => jointAt[i]));
const showLabels = document.getElementById('show-labels');
showLabels.checked = args.get('labels') === '1';
function placeLabels() {
  for (const l of labels) {
    const on = l.cls.startsWith('axis-label') || showLabels.checked;
    l.e.style.display = on ? '' : 'none';
    if (!on) continue;
    const p = l.at().clone().project(camera);
    l.e.style.left = ((p.x + 1) / 2 * W) + 'px';
    l.e.style.top = ((1 - p.y) / 2 * H) + 'px';
    if (p.z > 1) l.e.style.display = 'none';
  }
}

// Trails: the path of a solid's centre or a joint's point over the whole run, drawn up to now.
const trails = new Map();
function trailPath(name) {
  const s = D.solids.findIndex(x => x.name === name);
  const j = D.joints.find(x => x.name === name);
  const pts = new Float32Array(3 * F);
  for (let k = 0; k < F; ++k) {
    if (s >= 0) pose(k, s, v, tq); else world(jointPoint(j), k, v);
    pts[3 * k] = v.x; pts[3 * k + 1] = v.y; pts[3 * k + 2] = v.z;
  }
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.BufferAttribute(pts, 3));
  const line = new THREE.Line(g, new THREE.LineBasicMaterial({color: 0xc0209a}));
  line.frustumCulled = false;
  return line;
}
const trailBox = document.getElementById('trail-list');
const asked = new Set([...D.trails, ...args.getAll('trail')]);
for (const name of [...D.solids.map(s => s.name), ...D.joints.map(j => j.name)]) {
  const row = document.createElement('label');
  const check = document.createElement('input');
  check.type = 'checkbox'; check.checked = asked.has(name); check.dataset.name = name;
  row.appendChild(check); row.appendChild(document.createTextNode(' ' + name));
  trailBox.appendChild(row); trailBox.appendChild(document.createElement('br'));
  const toggle = () => {
    if (check.checked && !trails.has(name)) { trails.set(name, trailPath(name)); scene.add(trails.get(name)); }
    if (!check.checked && trails.has(name)) { scene.remove(trails.get(name)); trails.delete(name); }
    draw(current);
  };
  check.onchange = toggle;
  if (check.checked) { trails.set(name, trailPath(name)); scene.add(trails.get(name)); }
}

// One frame: instance matrices, joints, lines, trails, labels; then the picture.
const a = new THREE.Vector3(), b = new THREE.Vector3(), n1 = new THREE.Vector3(), n2 = new THREE.Vector3();
let lineAt = 0;
function segment(p, q, c) {
  linePos.set([p.x, p.y, p.z, q.x, q.y, q.z], 6 * lineAt);
  lineCol.set([c[0], c[1], c[2], c[0], c[1], c[2]], 6 * lineAt);
  ++lineAt;
}
function spring(p, q) {
  const d = q.clone().sub(p), len = d.length();
  // Zigzag across the spring: in the plane of a planar model (about z first).
  n1.copy(Z).cross(d); if (n1.lengthSq() < 1e-6 * len * len) n1.set(1, 0, 0).cross(d);
  n1.normalize().multiplyScalar(0.015 * L);
  const ends = 0.1, c = [0.1, 0.55, 0.2];
  let prev = p.clone().addScaledVector(d, ends);
  segment(p, prev, c);
  for (let i = 1; i <= COILS; ++i) {
    const f = ends + (1 - 2 * ends) * i / COILS;
    const next = p.clone().addScaledVector(d, f);
    if (i < COILS) next.addScaledVector(n1, i % 2 ? 1 : -1);
    segment(prev, next, c); prev = next;
  }
  segment(prev, q, c);
}
let current = 0, drawMs = 0, draws = 0, measuring = args.has('redraw');
function draw(k) {
  const start = performance.now();
  current = k;
  D.solids.forEach((s, i) => {
    const slot = solidSlot[i];
    pose(k, i, solidAt[i], tq);
    q2.copy(tq).multiply(slot.rot);
    slot.group.mesh.setMatrixAt(slot.index, m4.compose(solidAt[i], q2, slot.scale));
  });
  for (const g of groups.values()) g.mesh.instanceMatrix.needsUpdate = true;
  lineAt = 0;
  let ball = 0, pin = 0;
  D.joints.forEach((j, i) => {
    world(jointPoint(j), k, jointAt[i]);
    if (!withAxis(j)) {
      ballMesh.setMatrixAt(ball++, m4.compose(jointAt[i], q2.set(0, 0, 0, 1), one.clone().multiplyScalar(J)));
      return;
    }
    a.set(...j.axis).normalize();
    if (j.i.solid >= 0) { pose(k, j.i.solid, tp, tq); a.applyQuaternion(tq); }
    q2.setFromUnitVectors(Z, a);
    pinMesh.setMatrixAt(pin++, m4.compose(jointAt[i], q2, new THREE.Vector3(0.8 * J, 0.8 * J, 2.2 * J)));
    segment(b.copy(jointAt[i]).addScaledVector(a, -3 * J), n2.copy(jointAt[i]).addScaledVector(a, 3 * J), [0.7, 0.35, 0.0]);
  });
  ballMesh.instanceMatrix.needsUpdate = true; pinMesh.instanceMatrix.needsUpdate = true;
  for (const p of sticks) segment(solidAt[p.solid], world(p, k, a), [0.16, 0.3, 0.6]);
  for (const l of D.links) {
    world(l.i, k, a); world(l.j, k, b);
    if (l.spring) spring(a.clone(), b.clone()); else segment(a, b, [0.1, 0.1, 0.1]);
  }
  lineGeo.attributes.position.needsUpdate = true; lineGeo.attributes.color.needsUpdate = true;
  for (const line of trails.values()) line.geometry.setDrawRange(0, k + 1);
  render();
  if (measuring) renderer.getContext().finish();  // count the raster too, not only the calls
  // The first draw compiles the shaders: left out of the mean time to draw a frame.
  if (draws++ > 0) drawMs += performance.now() - start;
  slider.value = k;
  clockText.textContent = D.label + ' = ' + D.times[k].toFixed(4) + ' ' + D.unit;
  view.dataset.t = D.times[k]; view.dataset.frame = k;
  if (timer === null) publish();
}
function render() { renderer.render(scene, camera); placeLabels(); }
controls.addEventListener('change', () => { render(); if (timer === null) publish(); });

// What the page drew, for a headless browser: window.kinevo_scene and #scene-state.
function publish() {
  const pos = new THREE.Vector3(), rot = new THREE.Quaternion(), scl = new THREE.Vector3();
  const solids = D.solids.map((s, i) => {
    const slot = solidSlot[i];
    slot.group.mesh.getMatrixAt(slot.index, m4);
    m4.decompose(pos, rot, scl);
    rot.multiply(slot.rot.clone().inverse());
    return {name: s.name, shape: s.shape, position: pos.toArray(), quaternion: [rot.w, rot.x, rot.y, rot.z],
            size: scl.toArray(), instances: slot.group.mesh.count};
  });
  const rect = renderer.domElement.getBoundingClientRect();
  camera.updateMatrixWorld();
  const vp = camera.projectionMatrix.clone().multiply(camera.matrixWorldInverse);
  window.kinevo_scene = {
    t: D.times[current], frame: current, solids,
    joints: D.joints.map((j, i) => ({name: j.name, type: j.type, position: jointAt[i].toArray()})),
    anchors: anchors.map(p => p.at), trails: [...trails.keys()], panels: D.panels,
    clock: clockText.textContent, playing: timer !== null,
    view_projection: vp.elements, canvas: [rect.left + window.scrollX, rect.top + window.scrollY, rect.width, rect.height],
    grid_spacing: spacing, extent: L, draw_ms: draws > 1 ? drawMs / (draws - 1) : null, frames_drawn: draws, draw_calls: renderer.info.render.calls
  };
  document.getElementById('scene-state').textContent = JSON.stringify(window.kinevo_scene);
}

// The clock: a timer rather than requestAnimationFrame, so that it also runs where nothing is
// painted (a headless browser's virtual time); it follows the elapsed time either way.
const slider = document.getElementById('time'), clockText = document.getElementById('clock');
slider.max = F - 1;
function nearest(t) {
  let lo = 0, hi = F - 1;
  while (hi - lo > 1) { const c = (lo + hi) >> 1; if (D.times[c] <= t) lo = c; else hi = c; }
  return Math.abs(D.times[hi] - t) < Math.abs(D.times[lo] - t) ? hi : lo;
}
let timer = null, clock = D.times[0], last = null;
const button = document.getElementById('play');
function tick() {
  const now = performance.now();
  if (last !== null) clock += (now - last) / 1000 * Number(document.getElementById('speed').value);
  last = now;
  if (clock > D.times[F - 1]) clock = D.times[0];
  draw(nearest(clock));
}
function setPlaying(on) {
  // Pausing draws the time it is paused at (the last tick may be a while ago: timers of a busy
  // or hidden page are delayed); playing counts from the press, not from the first tick.
  if (timer !== null) { tick(); clearInterval(timer); }
  timer = on ? setInterval(tick, 1000 / 60) : null;
  last = on ? performance.now() : null;
  button.textContent = on ? 'Pause' : 'Play';
  if (!on) publish();
}
button.onclick = () => setPlaying(timer === null);
slider.oninput = () => { clock = D.times[Number(slider.value)]; draw(Number(slider.value)); };
showLabels.onchange = () => render();
document.getElementById('home').onclick = () => { homeView(); controls.target.copy(centre); controls.update(); render(); };
const at = Number(args.get('t'));
if (args.has('t') && isFinite(at)) {
  // &redraw=N: draw N other frames first (to measure the time a frame takes), then the asked one.
  const k = nearest(at);
  for (let i = 1; i <= Math.min(Number(args.get('redraw')) || 0, 10000); ++i) draw((k + i) % F);
  // Play goes on from the frame shown (an address before the start would never reach it).
  clock = D.times[k]; draw(k);
}
else { draw(0); setPlaying(true); }
document.body.setAttribute('data-ready', '1');
)JS";

}  // namespace kinevo::io
