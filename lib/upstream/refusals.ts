// Why an upstream sign-in did not sign anyone in, and what the person reads about it
// (app/entrar/recusado). Each says what happened and whom to ask; none names a technical cause
// that would help someone probe the hub.
export const UPSTREAM_REFUSALS = {
  estado: {
    title: "O pedido de entrada expirou",
    text: "A entrada começou em outra aba ou navegador, passou de 10 minutos ou já foi usada. Volte à página de entrada e tente de novo.",
  },
  desativado: {
    title: "Esta forma de entrada está desativada",
    text: "A rede desativou esta forma de entrada. Entre com o e-mail ou CPF e a senha, ou pergunte à secretaria da escola como entrar.",
  },
  provedor: {
    title: "O provedor não concluiu a entrada",
    text: "A entrada foi cancelada ou o provedor de contas não respondeu. Tente de novo em alguns minutos; se continuar, avise a equipe de tecnologia da rede.",
  },
  resposta: {
    title: "Não foi possível confirmar a sua conta",
    text: "A resposta do provedor de contas não passou na verificação de segurança do Hub. Nada foi feito. Avise a equipe de tecnologia da rede.",
  },
  "nao-verificado": {
    title: "O e-mail desta conta não está confirmado",
    text: "O provedor não confirmou o e-mail da conta. Peça à equipe de tecnologia da rede que confirme o e-mail da sua conta institucional.",
  },
  dominio: {
    title: "Esta conta não é da sua rede",
    text: "Use a conta institucional que a rede lhe deu (não uma conta pessoal). Se tiver dúvida de qual é, pergunte à secretaria da escola.",
  },
  cpf: {
    title: "A conta não informou um CPF válido",
    text: "O provedor não enviou o CPF da conta. Entre com o e-mail ou CPF e a senha, ou pergunte à secretaria da escola.",
  },
  desconhecido: {
    title: "Não encontramos você no cadastro da rede",
    text: "Nenhuma pessoa da rede tem o e-mail ou o CPF desta conta. Peça à secretaria da escola que confira o seu cadastro no Hub.",
  },
  ambiguo: {
    title: "Esta conta aponta para duas pessoas",
    text: "A conta já está vinculada a uma pessoa do Hub e o e-mail dela é de outra. Por segurança, ninguém entrou. Peça ao gestor da rede que corrija o cadastro.",
  },
  desvinculada: {
    title: "Esta conta foi desvinculada",
    text: "Esta conta foi desvinculada do seu cadastro no Hub. Entre com o e-mail ou CPF e a senha e vincule-a de novo em “Meus dados”, ou peça ajuda à secretaria da escola.",
  },
  "outra-pessoa": {
    title: "Esta conta é de outra pessoa",
    text: "A conta com que você entrou no provedor pertence a outra pessoa do cadastro da rede, e não foi vinculada. Saia da conta no provedor e tente de novo com a sua.",
  },
} as const;

export type TUpstreamRefusal = keyof typeof UPSTREAM_REFUSALS;

export function isUpstreamRefusal(value: unknown): value is TUpstreamRefusal {
  return typeof value === "string" && Object.hasOwn(UPSTREAM_REFUSALS, value);
}
