import type { CueName } from "./cues.js";
import { buildTermIndex, type Term, type TermIndex } from "./term-index.js";

// Lists are written as comma-separated terms to keep them readable; terms match on word boundaries
// in canonical form ("trade-offs" is "trade offs").
function terms(list: string): readonly string[] {
  return list.split(",").map((term) => term.trim());
}

/**
 * High-rigor domains and the terms that trigger them on their own (step 0). Deliberately specific
 * words and multi-word phrases: a hard override costs a wrong mode when it misfires, so loose words
 * ("money", "plan") are left to step 1, and everyday double meanings to CONTEXTUAL_DOMAIN_TRIGGERS.
 */
export const HIGH_RIGOR_DOMAINS: Readonly<Record<string, readonly string[]>> = {
  finance: terms(
    "finance, finances, financial, tax, taxes, taxation, taxable, tax return, mortgage, mortgages, loan, loans, pension, pensions, stock market, capital gains, accounting, bookkeeping, index fund, index funds, etf, etfs, 401k, credit score, interest rate, interest rates, refinance, refinancing, amortisation, amortization, social security, cryptocurrency",
  ),
  legal: terms(
    "legal, legally, lawyer, lawyers, attorney, lawsuit, litigation, suing, nda, ndas, gdpr, copyright, court case, terms of service, cease and desist, non disclosure agreement, small claims, breach of contract, employment contract, rental agreement, lease agreement, tenancy agreement, power of attorney, can i sue, could i sue, should i sue, can we sue, should we sue, going to sue, want to sue, gonna sue, threatening to sue, threatened to sue, sue them, sue him, sue her, sue me, sue us, sue my, sue the, sue for, can i trademark, to trademark, trademark my, trademark our, can i patent, to patent, patent my, patent our",
  ),
  architecture: terms(
    "adr, adrs, architecture decision record, architecture decision records, system design, microservices, microservice, software architecture, system architecture, systems architecture, solution architecture, architecture review, event sourcing, bounded context, bounded contexts",
  ),
  security: terms(
    "cybersecurity, infosec, malware, ransomware, spyware, phishing, encryption, pentest, penetration test, threat model, threat modelling, threat modeling, data breach, security audit, security review, security hole, security holes, security vulnerability, sql injection, ddos",
  ),
  governance: terms("governance, solos, bylaws, mounted law"),
};

/**
 * Domain words that are also everyday words ("the architecture in Barcelona", "my contract with the
 * gym", "a security blanket", "I invested so much in this friendship"). They trigger their domain
 * only with support in the same message: a cue of that domain (DOMAIN_CUES), another contextual
 * trigger of the domain, or for finance a money or percent amount.
 */
export const CONTEXTUAL_DOMAIN_TRIGGERS: Readonly<Record<string, readonly string[]>> = {
  finance: terms(
    "invest, invests, invested, investing, investment, investments, investor, investors, portfolio, portfolios, dividend, dividends",
  ),
  legal: terms(
    "contract, contracts, liability, liable, patent, patents, trademark, trademarks, compliance, compliant, lease, agreement",
  ),
  architecture: terms("architecture, architectural, monolith"),
  security: terms("security, vulnerability, vulnerabilities, exploit, exploits, exploited, secure"),
  governance: [],
};

// Careful-work words that mark a legal, architecture or security task ("review the contract", "the
// security implications"). Finance does without them: "review my portfolio" is as often about art.
const REVIEW_WORK =
  "review, reviewing, audit, auditing, assess, assessment, evaluate, evaluation, analyse, analyze, analysis, implications, risk, risks, trade offs, tradeoffs, draft, drafting, policy, policies, requirements, decision, decisions";

/** Words of each domain's own work that make its contextual triggers count. */
export const DOMAIN_CUES: Readonly<Record<string, readonly string[]>> = {
  finance: terms(
    "money, cash, savings, stock, stocks, shares, bonds, fund, funds, crypto, bitcoin, retirement, interest, broker, brokerage, bank, salary, income, diversify, diversified, diversification, fees, yield, market, markets, property, real estate, capital, returns, dollars, euros",
  ),
  legal: terms(
    `clause, clauses, sign, signing, signed, terms, breach, enforceable, binding, void, penalty, termination, terminate, notice period, court, law, laws, rights, regulation, regulations, regulatory, employer, employment, landlord, tenant, tenancy, look at, look over, go over, read through, check, negotiate, renegotiate, dispute, claim, damages, infringe, infringement, register, registration, brand, logo, invention, ${REVIEW_WORK}`,
  ),
  architecture: terms(
    `software, system, systems, service, services, api, apis, backend, frontend, database, databases, schema, server, servers, cloud, infrastructure, codebase, code, app, application, applications, platform, scalability, scalable, scaling, latency, throughput, queue, queues, deployment, component, components, module, modules, modular, microservice, event driven, design doc, tech stack, pipeline, ${REVIEW_WORK}`,
  ),
  security: terms(
    `password, passwords, account, accounts, login, log in, sign in, authentication, 2fa, hack, hacked, hacker, hackers, attack, attacks, attacker, breach, server, servers, network, wifi, router, firewall, software, code, api, app, website, data, leak, leaked, patch, patches, cve, permissions, credentials, token, tokens, ssl, tls, cloud, email, antivirus, ${REVIEW_WORK}`,
  ),
  governance: [],
};

// Structural cues that support a domain's contextual triggers ("invest $500", "a 5% dividend").
const DOMAIN_STRUCTURAL_CUES: Readonly<Record<string, readonly CueName[]>> = {
  finance: ["money", "percent"],
};

export const DOMAIN_NAMES = Object.keys(HIGH_RIGOR_DOMAINS);

/** A domain trigger found in a message, with the cue that supported it when it needed one. */
export interface DomainHit {
  readonly domain: string;
  readonly term: string;
  readonly cue?: string;
}

/** The compiled trigger and cue lists; a term's `modeIndex` is its domain's index in DOMAIN_NAMES. */
export interface DomainIndex {
  readonly triggers: TermIndex;
  readonly contextual: TermIndex;
  readonly cues: TermIndex;
}

function domainTerms(lists: Readonly<Record<string, readonly string[]>>): Term[] {
  return DOMAIN_NAMES.flatMap((domain, modeIndex) =>
    (lists[domain] ?? []).map((text): Term => ({ text, modeIndex, kind: "keyword" })),
  );
}

/** Indexes the domain triggers, contextual triggers and cues. */
export function buildDomainIndex(): DomainIndex {
  return {
    triggers: buildTermIndex(domainTerms(HIGH_RIGOR_DOMAINS)),
    contextual: buildTermIndex(domainTerms(CONTEXTUAL_DOMAIN_TRIGGERS)),
    cues: buildTermIndex(domainTerms(DOMAIN_CUES)),
  };
}

/**
 * The distinct domains triggered in a message, in the order of their first trigger: a trigger of
 * HIGH_RIGOR_DOMAINS, or a contextual trigger with support (a cue of its domain, another
 * contextual trigger of the domain, or one of the domain's structural cues).
 */
export function detectDomains(
  index: DomainIndex,
  tokens: readonly string[],
  structural: readonly CueName[] = [],
): DomainHit[] {
  const found = new Map<number, { position: number; hit: DomainHit }>();
  const keep = (modeIndex: number, position: number, hit: DomainHit) => {
    const seen = found.get(modeIndex);
    if (seen === undefined || position < seen.position) found.set(modeIndex, { position, hit });
  };
  for (const hit of index.triggers.find(tokens)) {
    const domain = DOMAIN_NAMES[hit.modeIndex];
    if (domain !== undefined) keep(hit.modeIndex, hit.position, { domain, term: hit.text });
  }
  const contextual = index.contextual.find(tokens);
  if (contextual.length > 0) {
    const cues = index.cues.find(tokens);
    for (const hit of contextual) {
      const domain = DOMAIN_NAMES[hit.modeIndex];
      if (domain === undefined) continue;
      const cue =
        cues.find((c) => c.modeIndex === hit.modeIndex)?.text ??
        contextual.find((c) => c.modeIndex === hit.modeIndex && c.text !== hit.text)?.text ??
        DOMAIN_STRUCTURAL_CUES[domain]?.find((name) => structural.includes(name));
      if (cue !== undefined) keep(hit.modeIndex, hit.position, { domain, term: hit.text, cue });
    }
  }
  return [...found.values()].sort((a, b) => a.position - b.position).map(({ hit }) => hit);
}
