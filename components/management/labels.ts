// pt-BR labels of the manager area.
import { env } from "@/lib/env";
export const KIND_LABEL = { network: "Rede", school: "Escola" } as const;
export const SHIFT_LABEL: Record<string, string> = { manha: "Manhã", tarde: "Tarde", noite: "Noite", integral: "Integral" };
export const ROLE_OPTIONS = [
  { value: "aluno", label: "Aluno(a)" },
  { value: "professor", label: "Professor(a)" },
  { value: "responsavel", label: "Responsável" },
  { value: "gestor", label: "Gestor(a)" },
];
export const SHIFT_OPTIONS = [
  { value: "", label: "—" },
  { value: "manha", label: "Manhã" },
  { value: "tarde", label: "Tarde" },
  { value: "noite", label: "Noite" },
  { value: "integral", label: "Integral" },
];
export const ENTITY_LABEL = {
  usuario: "Usuários",
  turma: "Turmas",
  disciplinaProfessor: "Professores por disciplina",
  turmaAluno: "Matrículas",
  responsavelAluno: "Responsáveis",
  disciplina: "Disciplinas",
  periodo: "Períodos",
} as const;
export const EVENT_LABEL = { insert: "Inclusões", update: "Alterações", delete: "Exclusões" } as const;
export const ATTRIBUTE_LABEL = {
  nome_usuario: "Nome (nome_usuario)",
  idade: "Data de nascimento (idade)",
  cpf: "CPF (cpf)",
  email_usuario: "E-mail (email_usuario)",
  telefone: "Celular (telefone)",
} as const;
export const RULE_LABEL = { permitido: "Compartilhado", anonimizado: "Anonimizado", nao_compartilhado: "Não compartilhado" } as const;

let dateTime: Intl.DateTimeFormat | undefined;
/** A moment in the hub's time zone (HUB_TIME_ZONE), as the manager reads it. Server components only (it reads the configuration). */
export const formatDateTime = (d: Date) => (dateTime ??= new Intl.DateTimeFormat("pt-BR", { dateStyle: "short", timeStyle: "medium", timeZone: env().HUB_TIME_ZONE })).format(d);
export const formatDay = (iso: string | null) => (iso ? iso.split("-").reverse().join("/") : "—");
export const formatCpf = (cpf: string | null) => (cpf && cpf.length === 11 ? `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}` : (cpf ?? "—"));
export const CHANNEL_LABEL = {
  data_api: "API de dados",
  summary: "Resumo da API",
  user_info: "Informações do usuário",
  id_token: "Token de identidade (id_token)",
  lti_launch: "Lançamento LTI",
  oneroster: "OneRoster 1.2",
} as const;
