// Command pulumi-language-python runs a Pulumi Python program for the Pulumi CLI.
//
// The upstream language host (module github.com/pulumi/pulumi/sdk/python/cmd/pulumi-language-python/v3)
// is not served by the Go module proxy this project builds from, so the real-engine toolchain builds
// this one instead. It does what the upstream host does to run a program, using the same pieces: it
// resolves the Python toolchain with the SDK's own python/toolchain package, runs the SDK's
// pulumi-language-python-exec with the arguments and environment upstream passes (config as
// PULUMI_CONFIG, secret keys as PULUMI_CONFIG_SECRET_KEYS), and maps its exit code to the same
// RunResponse (32 means the program already reported its error). Everything else the engine drives
// (deployment, state, providers, the Python SDK, the dynamic-provider host) is the upstream code.
// Plugin discovery is left to the engine: it finds pulumi-resource-kubernetes and
// pulumi-resource-pulumi-python on PATH when the program registers their resources.
//
// RunPlugin runs a plugin written in Python (a directory with a PulumiPlugin.yaml, such as this
// project's component provider) as upstream does: `python <plugin directory> <args>` with the
// plugin's own toolchain options (its virtualenv), streaming stdout and stderr to the engine and
// reporting the exit code. A policy pack (a PulumiPolicy.yaml directory; the engine asks for the
// analyzer kind) runs as upstream runs it since it dropped the `pulumi-analyzer-policy-python`
// shim: `python -u -m pulumi.policy <engine address> <pack directory>` in the pack's virtualenv and
// directory, behind the SDK's PolicyProxy, which takes the engine's stack configuration first and
// hands it to the pack as PULUMI_PROJECT, PULUMI_STACK, PULUMI_DRY_RUN and PULUMI_CONFIG.
//
// InstallDependencies (`pulumi install`, and the install a `pulumi up` of a new project starts)
// does what upstream does with the SDK's toolchain package: for a program it creates the
// virtualenv the project names (`virtualenv: venv`) and installs its requirements.txt into it
// (pip, setuptools and wheel upgraded first), or runs poetry / uv for those toolchains. For a
// plugin (`pulumi install` of a program whose packages name a Python plugin directory) it does
// the same only while the plugin's virtualenv does not exist yet, where upstream would run it
// again: a plugin's virtualenv is often one a developer or a test made and shares (this
// repository's tests link the provider's to their own interpreter's), which a reinstall would
// upgrade under them.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"

	sdk "github.com/pulumi/pulumi/sdk/v3"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"github.com/pulumi/pulumi/sdk/v3/python/toolchain"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"
)

// Set by the toolchain script to the SDK version whose exec script this host runs.
var version = "0.0.0"

// exitedAfterUserMessage is pulumi-language-python-exec's exit code for "error already shown".
const exitedAfterUserMessage = 32

type host struct {
	pulumirpc.UnimplementedLanguageRuntimeServer
	engineAddress string
	tracing       string
}

func (h *host) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version}, nil
}

func (h *host) GetRequiredPlugins(
	context.Context, *pulumirpc.GetRequiredPluginsRequest,
) (*pulumirpc.GetRequiredPluginsResponse, error) {
	return &pulumirpc.GetRequiredPluginsResponse{}, nil
}

func (h *host) GetRequiredPackages(
	context.Context, *pulumirpc.GetRequiredPackagesRequest,
) (*pulumirpc.GetRequiredPackagesResponse, error) {
	return &pulumirpc.GetRequiredPackagesResponse{}, nil
}

func (h *host) InstallDependencies(
	req *pulumirpc.InstallDependenciesRequest, server pulumirpc.LanguageRuntime_InstallDependenciesServer,
) error {
	opts, err := pythonOptions(req.GetInfo(), req.GetIsPlugin())
	if err != nil {
		return err
	}
	closer, stdout, stderr, err := rpcutil.MakeInstallDependenciesStreams(server, req.GetIsTerminal())
	if err != nil {
		return err
	}
	defer closer.Close()
	if req.GetIsPlugin() && opts.Virtualenv != "" {
		venv := opts.Virtualenv
		if !filepath.IsAbs(venv) {
			venv = filepath.Join(opts.Root, venv)
		}
		if _, err := os.Stat(venv); err == nil {
			fmt.Fprintf(stdout, "Using the existing virtual environment %s\n", venv)
			return closer.Close()
		}
	}
	fmt.Fprintf(stdout, "Installing dependencies...\n\n")
	tc, err := toolchain.ResolveToolchain(opts)
	if err != nil {
		return err
	}
	if err := tc.InstallDependencies(server.Context(), req.GetInfo().GetProgramDirectory(),
		req.GetUseLanguageVersionTools(), true, stdout, stderr); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Finished installing dependencies\n\n")
	return closer.Close()
}

// pythonOptions reads the runtime options of Pulumi.yaml (or PulumiPlugin.yaml, PulumiPolicy.yaml).
// A plugin or policy pack with the pip toolchain and no virtualenv option gets `venv`, as upstream
// gives it: plugins never run in the ambient Python.
func pythonOptions(info *pulumirpc.ProgramInfo, isPlugin bool) (toolchain.PythonOptions, error) {
	opts := toolchain.PythonOptions{
		Root:       info.GetRootDirectory(),
		ProgramDir: info.GetProgramDirectory(),
		Toolchain:  toolchain.Auto,
	}
	raw := info.GetOptions().AsMap()
	if v, ok := raw["virtualenv"].(string); ok {
		opts.Virtualenv = v
	}
	switch raw["toolchain"] {
	case nil:
	case "pip":
		opts.Toolchain = toolchain.Pip
	case "poetry":
		opts.Toolchain = toolchain.Poetry
	case "uv":
		opts.Toolchain = toolchain.Uv
	default:
		return opts, fmt.Errorf("unsupported toolchain option %v", raw["toolchain"])
	}
	if isPlugin && opts.Virtualenv == "" && (opts.Toolchain == toolchain.Pip || opts.Toolchain == toolchain.Auto) {
		opts.Virtualenv = "venv"
	}
	return opts, nil
}

func (h *host) arguments(req *pulumirpc.RunRequest) []string {
	args := []string{}
	add := func(name, value string) {
		if value != "" {
			args = append(args, name, value)
		}
	}
	add("--monitor", req.GetMonitorAddress())
	add("--engine", h.engineAddress)
	add("--project", req.GetProject())
	add("--stack", req.GetStack())
	add("--pwd", req.GetPwd())
	if req.GetDryRun() {
		args = append(args, "--dry_run", "true")
	}
	args = append(args, "--parallel", strconv.Itoa(int(req.GetParallel())))
	add("--tracing", h.tracing)
	add("--organization", req.GetOrganization())
	add("--root_directory", req.GetInfo().GetRootDirectory())
	program := req.GetProgram()
	if program == "" {
		program = "."
	}
	args = append(args, program)
	return append(args, req.GetArgs()...)
}

func (h *host) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	execScript, err := exec.LookPath("pulumi-language-python-exec")
	if err != nil {
		return nil, fmt.Errorf("pulumi-language-python-exec is not on PATH: %w", err)
	}
	opts, err := pythonOptions(req.GetInfo(), false)
	if err != nil {
		return nil, err
	}
	tc, err := toolchain.ResolveToolchain(opts)
	if err != nil {
		return nil, err
	}
	cmd, err := tc.Command(ctx, append([]string{execScript}, h.arguments(req)...)...)
	if err != nil {
		return nil, err
	}
	configMap := req.GetConfig()
	if configMap == nil {
		// The exec script reads PULUMI_CONFIG as a JSON object; a stack without config is an empty one.
		configMap = map[string]string{}
	}
	config, err := json.Marshal(configMap)
	if err != nil {
		return nil, err
	}
	secretKeys := req.GetConfigSecretKeys()
	if secretKeys == nil {
		secretKeys = []string{}
	}
	secretJSON, err := json.Marshal(secretKeys)
	if err != nil {
		return nil, err
	}
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env,
		"PULUMI_CONFIG="+string(config),
		"PULUMI_CONFIG_SECRET_KEYS="+string(secretJSON),
	)
	if opts.Virtualenv != "" {
		cmd.Env = append(cmd.Env, "PULUMI_RUNTIME_VIRTUALENV="+opts.Virtualenv)
	}
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			if exitErr.ExitCode() == exitedAfterUserMessage {
				return &pulumirpc.RunResponse{Bail: true}, nil
			}
			return &pulumirpc.RunResponse{
				Error: fmt.Sprintf("Program exited with non-zero exit code: %d", exitErr.ExitCode()),
			}, nil
		}
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	return &pulumirpc.RunResponse{}, nil
}

func (h *host) RunPlugin(req *pulumirpc.RunPluginRequest, server pulumirpc.LanguageRuntime_RunPluginServer) error {
	ctx := server.Context()
	closer, stdout, stderr, err := rpcutil.MakeRunPluginStreams(server, false)
	if err != nil {
		return err
	}
	defer closer.Close()
	analyzer := req.GetKind() == string(apitype.AnalyzerPlugin)
	opts, err := pythonOptions(req.GetInfo(), true)
	if err != nil {
		return err
	}
	tc, err := toolchain.ResolveToolchain(opts)
	if err != nil {
		return err
	}
	programDir := req.GetInfo().GetProgramDirectory()
	args := append([]string{programDir}, req.GetArgs()...)
	if analyzer {
		// The engine's address comes first and the pack's directory last, as pulumi.policy reads them.
		args = append(append([]string{"-u", "-m", "pulumi.policy"}, req.GetArgs()...), programDir)
	}
	cmd, err := tc.Command(ctx, args...)
	if err != nil {
		return err
	}
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Dir = req.GetPwd()
	var proxy *sdk.PolicyProxy
	if analyzer {
		// Policy packs have always run in their own directory.
		cmd.Dir = programDir
		proxy, stdout, err = sdk.NewPolicyProxy(ctx, stdout)
		if err != nil {
			return fmt.Errorf("could not start the policy pack proxy: %w", err)
		}
		config, err := proxy.AwaitConfiguration(ctx)
		if err != nil {
			return fmt.Errorf("could not get the stack configuration: %w", err)
		}
		if config != nil {
			add := func(name, value string) {
				if value != "" {
					cmd.Env = append(cmd.Env, name+"="+value)
				}
			}
			add("PULUMI_ORGANIZATION", config.GetOrganization())
			add("PULUMI_PROJECT", config.GetProject())
			add("PULUMI_STACK", config.GetStack())
			add("PULUMI_DRY_RUN", strconv.FormatBool(config.GetDryRun()))
			if config.GetConfig() != nil {
				configJSON, err := json.Marshal(config.GetConfig())
				if err != nil {
					return fmt.Errorf("could not encode the stack configuration: %w", err)
				}
				add("PULUMI_CONFIG", string(configJSON))
			}
		}
	}
	cmd.Env = append(cmd.Env, req.GetEnv()...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	run := func() error {
		if proxy == nil {
			return cmd.Run()
		}
		if err := cmd.Start(); err != nil {
			return err
		}
		return proxy.Attach(ctx, cmd)
	}
	if err := run(); err != nil {
		var exitErr *exec.ExitError
		if !errors.As(err, &exitErr) {
			return fmt.Errorf("running plugin: %w", err)
		}
		if err := server.Send(&pulumirpc.RunPluginResponse{
			Output: &pulumirpc.RunPluginResponse_Exitcode{Exitcode: int32(exitErr.ExitCode())},
		}); err != nil {
			return err
		}
	}
	return closer.Close()
}

func main() {
	tracing := flag.String("tracing", "", "Emit tracing to a Zipkin-compatible tracing endpoint")
	// Accepted for compatibility with the upstream host's command line; options come from Pulumi.yaml.
	flag.String("root", "", "Project root path")
	flag.String("virtualenv", "", "Virtual environment path")
	flag.String("typechecker", "", "Type checker")
	flag.String("toolchain", "", "Python toolchain")
	flag.Parse()
	engineAddress := ""
	if args := flag.Args(); len(args) > 0 {
		engineAddress = args[0]
	}
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, &host{engineAddress: engineAddress, tracing: *tracing})
			return nil
		},
		Options: rpcutil.OpenTracingServerInterceptorOptions(nil),
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "fatal: %v\n", err)
		os.Exit(1)
	}
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		fmt.Fprintf(os.Stderr, "fatal: %v\n", err)
		os.Exit(1)
	}
}
