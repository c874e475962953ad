CREATE TABLE "rejected_parameters" (
	"model_id" text NOT NULL,
	"parameter" text NOT NULL,
	"rejected_at" text NOT NULL,
	CONSTRAINT "rejected_parameters_model_id_parameter_pk" PRIMARY KEY("model_id","parameter")
);
