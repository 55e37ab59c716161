// Deterministic pt-BR names for demo and benchmark data (no randomness between runs).
const FIRST = ["Ana", "Bruno", "Camila", "Daniel", "Eduarda", "Felipe", "Gabriela", "Heitor", "Isabela", "João", "Larissa", "Lucas", "Mariana", "Matheus", "Natália", "Otávio", "Patrícia", "Rafael", "Sofia", "Thiago", "Valentina", "Vitor", "Yasmin", "Arthur", "Beatriz", "Caio", "Helena", "Miguel", "Laura", "Davi"];
const LAST = ["Silva", "Santos", "Oliveira", "Souza", "Rodrigues", "Ferreira", "Alves", "Pereira", "Lima", "Gomes", "Costa", "Ribeiro", "Martins", "Carvalho", "Almeida", "Lopes", "Soares", "Fernandes", "Vieira", "Barbosa", "Rocha", "Dias", "Nascimento", "Moreira", "Cardoso"];

export function personName(i: number): string {
  const first = FIRST[i % FIRST.length]!;
  const middle = LAST[Math.floor(i / FIRST.length) % LAST.length]!;
  const last = LAST[(i * 7 + 3) % LAST.length]!;
  return `${first} ${middle} ${last}`;
}

/** A valid CPF built from a counter (check digits computed), never a real person's by intent. */
export function syntheticCpf(i: number): string {
  const base = String(100_000_000 + (i % 800_000_000)).padStart(9, "0").slice(0, 9);
  const digit = (s: string) => {
    let sum = 0;
    for (let k = 0; k < s.length; k++) sum += Number(s[k]) * (s.length + 1 - k);
    const r = (sum * 10) % 11;
    return r === 10 ? 0 : r;
  };
  const d1 = digit(base);
  const d2 = digit(base + d1);
  return `${base}${d1}${d2}`;
}

export function birthDate(i: number, age: number, referenceYear = 2026): string {
  const month = String((i % 12) + 1).padStart(2, "0");
  const day = String((i % 28) + 1).padStart(2, "0");
  return `${referenceYear - age}-${month}-${day}`;
}

export function slugEmail(name: string, i: number, domain: string): string {
  const base = name.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^a-z]+/g, ".");
  return `${base}.${i}@${domain}`;
}
