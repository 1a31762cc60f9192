import { Hono } from 'hono';
import type { FC } from 'hono/jsx';
import { recordAudit } from '../../audit/index.js';
import {
  getVasp,
  inboundUrl,
  rotateInboundToken,
  upsertVasp,
  VaspConflictError,
  VaspInput,
  type VaspInputValue,
  type VaspWithToken,
} from '../../travelrule/index.js';
import {
  errorPage,
  field,
  PAGE_SIZE,
  pageParam,
  queryString,
  render,
  requireRole,
  type DashboardDeps,
  type DashContext,
  type DashEnv,
} from '../context.js';
import { CsrfField, Field, Layout, Pager, Time } from '../layout.js';
import { listVaspPage } from '../queries.js';
import { UUID_RE } from '../../ids.js';

/**
 * /dashboard/vasps: the VASP directory. Every role reads it; admins add and edit entries
 * (validated by VaspInput, as the file and the CLI are; errors shown next to their fields) and
 * see each VASP's inbound URL, the credential it sends its TRP inquiries to.
 */

const FIELDS = [
  'name',
  'website',
  'legal_name',
  'country',
  'trp_endpoint',
  'trp_slip0044',
  'trp_tls_fingerprints',
  'email',
] as const;
type FormValues = Partial<Record<(typeof FIELDS)[number], string>>;
type FormErrors = Partial<Record<(typeof FIELDS)[number], string>>;

const DONE: Record<string, string> = { created: 'VASP added.', updated: 'VASP saved.' };

const VaspForm: FC<{ action: string; csrf: string; values: FormValues; errors: FormErrors }> = ({
  action,
  csrf,
  values,
  errors,
}) => (
  <form id="vasp-form" method="post" action={action} class="stack" novalidate>
    <CsrfField token={csrf} />
    <Field name="name" label="Name" value={values.name} error={errors.name} required />
    <Field
      name="website"
      label="Website"
      type="url"
      value={values.website}
      error={errors.website}
      required
      hint="https://…"
    />
    <Field
      name="legal_name"
      label="Legal name"
      value={values.legal_name}
      error={errors.legal_name}
    />
    <Field
      name="country"
      label="Country"
      value={values.country}
      error={errors.country}
      hint="ISO 3166-1 alpha-2, e.g. DE"
    />
    <Field
      name="trp_endpoint"
      label="TRP endpoint"
      type="url"
      value={values.trp_endpoint}
      error={errors.trp_endpoint}
      hint="Their TRP inquiry URL; leave empty to reach them by e-mail."
    />
    <div>
      <label for="f-trp_slip0044">How inquiries name a native coin</label>
      <span id="f-trp_slip0044-hint" class="muted">
        TRP's slip0044 as the coin type (60), or as the coin symbol ("ETH") for peers that read only
        that, as TRISA-based ones do.
      </span>
      <select id="f-trp_slip0044" name="trp_slip0044" aria-describedby="f-trp_slip0044-hint">
        <option value="number" selected={values.trp_slip0044 !== 'symbol'}>
          coin type (number)
        </option>
        <option value="symbol" selected={values.trp_slip0044 === 'symbol'}>
          coin symbol
        </option>
      </select>
    </div>
    <div>
      <label for="f-trp_tls_fingerprints">TLS certificate fingerprints (SHA-256)</label>
      <span id="f-trp_tls_fingerprints-hint" class="muted">
        One per line, as the VASP gives them. Its TRP server must present one of these certificates,
        and its TRP messages are taken only over a connection that presented one. Two while it
        changes certificates.
      </span>
      <textarea
        id="f-trp_tls_fingerprints"
        name="trp_tls_fingerprints"
        rows={3}
        spellcheck={false}
        aria-invalid={errors.trp_tls_fingerprints ? 'true' : undefined}
        aria-describedby={`f-trp_tls_fingerprints-hint${errors.trp_tls_fingerprints ? ' f-trp_tls_fingerprints-error' : ''}`}
      >
        {values.trp_tls_fingerprints ?? ''}
      </textarea>
      {errors.trp_tls_fingerprints ? (
        <span id="f-trp_tls_fingerprints-error" class="field-error">
          {errors.trp_tls_fingerprints}
        </span>
      ) : null}
    </div>
    <Field
      name="email"
      label="E-mail"
      type="email"
      value={values.email}
      error={errors.email}
      hint="Where the view link goes when there is no TRP endpoint."
    />
    <div>
      <button type="submit">Save VASP</button>
    </div>
  </form>
);

function readVaspForm(c: DashContext): {
  values: FormValues;
  parsed?: VaspInputValue;
  errors: FormErrors;
} {
  const values: FormValues = Object.fromEntries(FIELDS.map((f) => [f, field(c, f)]));
  // One fingerprint per line (a comma also separates them).
  const pins = (values.trp_tls_fingerprints ?? '')
    .split(/[\r\n,]+/)
    .map((line) => line.trim())
    .filter(Boolean);
  const result = VaspInput.safeParse({ ...values, trp_tls_fingerprints: pins });
  if (result.success) return { values, parsed: result.data, errors: {} };
  const errors: FormErrors = {};
  for (const issue of result.error.issues) {
    const key = String(issue.path[0] ?? 'name') as (typeof FIELDS)[number];
    errors[key] ??= issue.code === 'invalid_type' ? 'required' : issue.message;
  }
  return { values, errors };
}

export function vaspRoutes(deps: DashboardDeps): Hono<DashEnv> {
  const sql = deps.travelRule.sql;
  const vasps = new Hono<DashEnv>();

  /** Writes the entry, or says which field conflicts with another entry (a pinned certificate). */
  const save = async (
    input: VaspInputValue,
  ): Promise<{ vasp: VaspWithToken } | { errors: FormErrors }> => {
    try {
      return { vasp: await upsertVasp(sql, input, 'dashboard') };
    } catch (err) {
      if (err instanceof VaspConflictError)
        return {
          errors: { trp_tls_fingerprints: err.message.replace(/^trp_tls_fingerprints: /, '') },
        };
      throw err;
    }
  };

  const listPage = async (
    c: DashContext,
    form: { values: FormValues; errors: FormErrors; error?: string } = { values: {}, errors: {} },
    status: 200 | 400 = 200,
  ) => {
    const session = c.get('session');
    const admin = session.operator.role === 'admin';
    const page = pageParam(c.req.query('page'));
    const { rows, total } = await listVaspPage(sql, { page, limit: PAGE_SIZE });
    return render(
      c,
      <Layout
        title="VASPs"
        session={session}
        current="/dashboard/vasps"
        flash={DONE[c.req.query('done') ?? '']}
        error={form.error}
      >
        <table id="vasps">
          <caption>{`The directory, by name · ${total} VASPs`}</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Legal name</th>
              <th scope="col">Country</th>
              <th scope="col">Website</th>
              <th scope="col">Reached by</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((v) => (
              <tr data-uid={v.uid}>
                <td>{admin ? <a href={`/dashboard/vasps/${v.uid}`}>{v.name}</a> : v.name}</td>
                <td>{v.legal_name ?? '—'}</td>
                <td>{v.country ?? '—'}</td>
                <td>{v.website}</td>
                <td>
                  {v.trp_endpoint ? (
                    <>
                      TRP: <code>{v.trp_endpoint}</code>
                      {v.trp_tls_fingerprints.length ? (
                        ' · certificate pinned'
                      ) : (
                        <span class="muted"> · no certificate pinned</span>
                      )}
                    </>
                  ) : v.email ? (
                    `e-mail: ${v.email}`
                  ) : (
                    <span class="muted">no endpoint, no e-mail</span>
                  )}
                </td>
                <td>
                  <Time at={v.updated_at} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <Pager
          page={page}
          total={total}
          limit={PAGE_SIZE}
          href={(p) => `/dashboard/vasps${queryString({ page: p })}`}
        />
        {admin ? (
          <section aria-labelledby="h-add">
            <h2 id="h-add">Add a VASP</h2>
            <VaspForm
              action="/dashboard/vasps"
              csrf={session.csrfToken}
              values={form.values}
              errors={form.errors}
            />
          </section>
        ) : null}
      </Layout>,
      status,
    );
  };

  const editPage = async (
    c: DashContext,
    uid: string,
    form?: { values: FormValues; errors: FormErrors },
    /** An inbound token just made: shown this once (only its hash is stored). */
    madeToken?: { token: string; flash: string },
  ) => {
    const v = await getVasp(sql, uid);
    if (!v) return errorPage(c, 404, 'Not found', 'There is no VASP with this uid.');
    const session = c.get('session');
    const values: FormValues = form?.values ?? {
      name: v.name,
      website: v.website,
      legal_name: v.legal_name ?? '',
      country: v.country ?? '',
      trp_endpoint: v.trp_endpoint ?? '',
      trp_slip0044: v.trp_slip0044,
      trp_tls_fingerprints: v.trp_tls_fingerprints.join('\n'),
      email: v.email ?? '',
    };
    return render(
      c,
      <Layout
        title={`VASP ${v.name}`}
        session={session}
        current="/dashboard/vasps"
        flash={madeToken?.flash}
        error={form ? 'Some fields need a change; see below.' : undefined}
      >
        <p>
          <a href="/dashboard/vasps">Back to the directory</a>
        </p>
        <dl>
          <dt>Uid</dt>
          <dd>
            <code>{v.uid}</code>
          </dd>
          <dt>Inbound URL</dt>
          <dd>
            {madeToken ? (
              <>
                <code id="inbound-url">{inboundUrl(deps.travelRule.trpUrl, madeToken.token)}</code>{' '}
                <span class="muted">
                  Shown this once: give it to this VASP now. Only its hash is kept.
                </span>
              </>
            ) : (
              <span class="muted">
                Shown once, when it is made. A new one replaces it (the old one stops working).
              </span>
            )}
            <form method="post" action={`/dashboard/vasps/${v.uid}/rotate-token`}>
              <CsrfField token={session.csrfToken} />
              <button type="submit">New inbound URL</button>
            </form>
          </dd>
          <dt>Source</dt>
          <dd>{v.source}</dd>
          <dt>Created</dt>
          <dd>
            <Time at={v.created_at} />
          </dd>
        </dl>
        <h2>Edit</h2>
        <VaspForm
          action={`/dashboard/vasps/${v.uid}`}
          csrf={session.csrfToken}
          values={values}
          errors={form?.errors ?? {}}
        />
      </Layout>,
      form ? 400 : 200,
    );
  };

  vasps.get('/', (c) => listPage(c));

  vasps.post('/', requireRole('admin'), async (c) => {
    const { values, parsed, errors } = readVaspForm(c);
    if (!parsed)
      return listPage(
        c,
        {
          values,
          errors,
          error: 'The VASP was not added: some fields need a change; see the form.',
        },
        400,
      );
    const saved = await save({ ...parsed, uid: undefined, inbound_token: undefined });
    if ('errors' in saved)
      return listPage(
        c,
        { values, errors: saved.errors, error: 'The VASP was not added: see the form.' },
        400,
      );
    const { vasp } = saved;
    await recordAudit(sql, {
      actor: c.get('session').operator.login,
      action: 'vasp_create',
      target: vasp.uid,
    });
    // Not a redirect: the new VASP's inbound URL is shown this once.
    return editPage(c, vasp.uid, undefined, {
      token: vasp.inbound_token!,
      flash: 'VASP added.',
    });
  });

  vasps.get('/:uid', requireRole('admin'), async (c) => {
    const uid = c.req.param('uid');
    if (!UUID_RE.test(uid))
      return errorPage(c, 404, 'Not found', 'There is no VASP with this uid.');
    return editPage(c, uid.toLowerCase());
  });

  vasps.post('/:uid/rotate-token', requireRole('admin'), async (c) => {
    const uid = c.req.param('uid').toLowerCase();
    const token = UUID_RE.test(uid) ? await rotateInboundToken(sql, uid) : undefined;
    if (!token) return errorPage(c, 404, 'Not found', 'There is no VASP with this uid.');
    await recordAudit(sql, {
      actor: c.get('session').operator.login,
      action: 'vasp_update',
      target: uid,
      details: { inbound_token: 'replaced' },
    });
    return editPage(c, uid, undefined, {
      token,
      flash: 'New inbound URL made; the old one no longer works.',
    });
  });

  vasps.post('/:uid', requireRole('admin'), async (c) => {
    const uid = c.req.param('uid').toLowerCase();
    if (!UUID_RE.test(uid) || !(await getVasp(sql, uid)))
      return errorPage(c, 404, 'Not found', 'There is no VASP with this uid.');
    const { values, parsed, errors } = readVaspForm(c);
    if (!parsed) return editPage(c, uid, { values, errors });
    const saved = await save({ ...parsed, uid, inbound_token: undefined });
    if ('errors' in saved) return editPage(c, uid, { values, errors: saved.errors });
    await recordAudit(sql, {
      actor: c.get('session').operator.login,
      action: 'vasp_update',
      target: uid,
    });
    return c.redirect('/dashboard/vasps?done=updated', 303);
  });

  return vasps;
}
